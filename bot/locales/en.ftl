# The bot's texts (English). Plain text: no Markdown/HTML. Values arrive pre-formatted (₦ amounts, phone numbers).

## Command list (setMyCommands) and /help lines

cmd-start = Main menu
cmd-data = Buy data
cmd-airtime = Buy airtime
cmd-sms = Send bulk SMS
cmd-balance = Wallet balance
cmd-history = Recent orders
cmd-status = Status of an order: /status <reference>
cmd-setpin = Set or change your purchase PIN
cmd-cancel = Cancel the current step
cmd-help = How to use this bot
cmd-allow = Allow a user: /allow <telegram id>
cmd-deny = Remove a user: /deny <telegram id>
cmd-users = List allowed users
cmd-unlock = Lift a PIN lockout: /unlock <telegram id>

help-data = /data – buy a data plan
help-airtime = /airtime – buy airtime
help-sms = /sms – send bulk SMS (paste numbers or send a .txt/.csv file)
help-balance = /balance – wallet balance
help-history = /history – your recent orders
help-status = /status <reference> – one order
help-setpin = /setpin – set or change your purchase PIN
help-cancel = /cancel – stop the current step

## Main menu buttons

menu-data = 📶 Buy data
menu-airtime = 📞 Airtime
menu-sms = ✉️ Bulk SMS
menu-balance = 💰 Balance
menu-history = 🧾 History
menu-help = ❓ Help

## Buttons under messages

btn-menu = 🏠 Menu
btn-try-again = Try again
btn-buy-again = 🔁 Buy again
btn-details = 🧾 Details
btn-cancel = Cancel
btn-set-pin = 🔒 Set PIN
btn-confirm-pay = ✅ Confirm: pay { $price }
btn-confirm-cancel = ✖️ Cancel
btn-repeat-yes = 🔁 Yes, buy again
btn-repeat-no = No
btn-history-order = 🧾 { $n }

## Orders: states and outcomes (values: $what = "MTN data 1GB SME (30 days) to 0803 123 4567")

state-successful = Delivered
state-refunded = Refunded { $amount }
state-failed = Failed (not charged)
state-cancelled = Cancelled
state-expired = Expired
state-pending = Pending

product-data = Data
product-airtime = Airtime
product-sms = Bulk SMS

recipient-to = { $what } to { $to }
outcome-head = { $icon } { $label }: { $what }.
outcome-reference = Reference: { $ref }
outcome-balance = Wallet balance: { $balance }
outcome-charged = Charged: { $charged }
outcome-pending-note = The provider is still working on it; I will tell you when it settles. Don't pay again.
outcome-refunded-note = The provider could not deliver it; the money is back in the wallet.
outcome-not-charged-note = You were not charged.
outcome-unknown =
    ⚠️ Pending: { $what }.
    The provider did not answer clearly and I could not find the record yet. Do NOT buy again; I will keep checking and tell you. Order: { $order }
notice-restart = Update on an order interrupted by a restart:
notice-update = Update on order { $ref }:
notice-refund = ↩️ Refunded { $amount }: your { $what } (reference { $ref }) was reversed by the provider. The money goes back to the wallet.

## Refusals at Confirm (orders.execute)

refused-not-found = This order no longer exists.
refused-expired = This order has expired. Please start again.
refused-max-purchase = Refused: { $amount } is above your per-purchase limit of { $limit }.
refused-daily-limit = Refused: this would exceed your daily limit of { $limit } ({ $left } left today).

## Vendor errors in seller words

err-insufficient-balance = The wallet balance is too low for this purchase. Fund the wallet and try again.
err-invalid-input-plain = The details were refused: { $message }
err-invalid-input = The provider refused these details. Check the number and the plan.
err-auth = The provider refused the bot's login. Tell the bot admin.
err-rate-limited = The provider is busy. Try again in a minute.
err-network = The provider could not be reached. Try again in a few minutes.
err-not-found = The provider does not offer this right now.
err-not-charged = The purchase did not go through.
err-other = The provider's system had a problem. Try again in a few minutes.
err-with-reason = { $what }: { $reason }

## Confirm

confirm-question = Confirm { $price }?
confirm-question-for = Confirm { $price } for { $target }?
confirm-gets = Customer gets: { $gets }
confirm-pay = You pay: { $price } from the wallet
confirm-pay-note = You pay: { $price } from the wallet ({ $note })
confirm-wallet-after = Wallet after: { $balance }
confirm-sending =
    ⏳ Sending… don't pay again.
    { $what }
confirm-confirmed = Confirmed
confirm-cancelled = Cancelled
confirm-already-bought = Already bought (ref { $ref })
confirm-waiting-pin = 🔒 Waiting for your PIN.
repeat-question = You bought this { $ago } ago (ref { $ref }): { $gets }. Buy it again?
repeat-buying = Buying again: { $gets }.
repeat-declined = OK, not bought again. Nothing was bought.
ago-seconds = { $n } s
ago-minutes = { $n } min

## Checks before Confirm

check-cannot-buy = Cannot buy this
check-nothing-bought = { $text } Nothing was bought.
check-over-max = { $amount } is above your per-purchase limit of { $limit }. Nothing was bought.
check-over-daily = { $amount } would exceed your daily limit of { $limit } ({ $left } left today). Nothing was bought.
check-pin-required = A PIN is required for purchases. Set one first, then try again. Nothing was bought.
check-pin-locked = Purchases are locked after too many wrong PINs until { $until } (an admin can unlock you sooner). Nothing was bought.
check-short = Not enough in the wallet: it has { $balance }, this costs { $price } ({ $short } short). Fund the wallet, then tap Try again. Nothing was bought.

## Shared flow words

button-expired = This button has expired
flow-cancelled = Cancelled. Nothing was bought.
flow-still-open = (Your purchase above is still open: carry on there, or send /cancel.)
flow-use-buttons = Please use the buttons above, or /cancel.
clock-lagos = { $time } (Lagos time)

## Menu, help, reading

menu-question = What would you like to do?
menu-hello = Hello { $name }! What would you like to do?
help-intro = I buy data, airtime and bulk SMS from the merchant wallet.
help-limits = Limits: { $max } per purchase, { $daily } per day ({ $left } left today).
help-pin-required = A PIN is asked before every purchase.
help-no-pin = No PIN is required.
help-admin = Admin: { $commands } (with a user ID)
balance-text = 💰 Wallet balance: { $balance }
balance-failed = Could not read the balance
history-empty = No orders yet. Try /data or /airtime.
history-title = 🧾 Recent orders
history-tap = Tap a number for its details.
history-line = { $n }. { $date } { $what }, { $amount }: { $state }
history-line-ref = { $n }. { $date } { $what }, { $amount }: { $state } (ref { $ref })
status-usage = Usage: /status <reference>, e.g. /status Data123. Or open /history and tap an order.
status-not-found = No order with that reference in your history.
order-title = { $product } order of { $date }
unhandled-confirm-waiting = Tap Confirm or Cancel above, or send /cancel.
unhandled-text = I did not understand that. What would you like to do?
