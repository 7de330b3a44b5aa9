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
cmd-language = Choose your language
cmd-allow = Allow a user: /allow <telegram id>
cmd-deny = Remove a user: /deny <telegram id>
cmd-users = List allowed users
cmd-unlock = Lift a PIN lockout: /unlock <telegram id>
cmd-resetpin = Reset a forgotten PIN: /resetpin <telegram id>

help-data = /data – buy a data plan
help-airtime = /airtime – buy airtime
help-sms = /sms – send bulk SMS (paste numbers or send a .txt/.csv file)
help-balance = /balance – wallet balance
help-history = /history – your recent orders
help-status = /status <reference> – one order
help-setpin = /setpin – set or change your purchase PIN
help-cancel = /cancel – stop the current step
help-language = /language – choose your language

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
order-provider-ref = Provider's reference: { $ref }
outcome-balance = Wallet after this order: { $balance }
outcome-charged = Charged: { $charged }
outcome-pending-note = The provider is still working on it; I will tell you when it settles. Don't pay again.
outcome-refunded-note = The provider could not deliver it; the money is back in the wallet.
outcome-not-charged-note = You were not charged.
outcome-unknown =
    ⚠️ Pending: { $what }.
    The provider did not answer clearly and I could not find the record yet. Do NOT buy again; I will keep checking and tell you. Reference: { $order }
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
err-invalid-input = The provider refused these details. Check the number and the plan.
# the provider refused one detail by name at the purchase itself
err-refused-phone = The provider refused the phone number.
err-refused-iuc = The provider refused the IUC / smart card number.
err-refused-meter = The provider refused the meter number.
err-refused-recipients = The provider refused the list of numbers.
err-auth = The provider refused the bot's login. Tell the bot admin.
err-rate-limited = The provider is busy. Try again in a minute.
err-network = The provider could not be reached. Try again in a few minutes.
err-not-found = The provider does not offer this right now.
err-not-charged = The purchase did not go through.
err-other = The provider's system had a problem. Try again in a few minutes.
err-journal-unavailable = The bot could not save this order safely, so it did not send it. Try again in a few minutes.
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
check-daily-used = You have used your daily limit of { $limit } today. Nothing was bought.
check-pin-required = A PIN is required for purchases. Set one first, then try again. Nothing was bought.
check-pin-locked = Purchases are locked after too many wrong PINs until { $until } (an admin can unlock you sooner). Nothing was bought.
check-below-cheapest = Not enough in the wallet: it has { $balance }; the cheapest { $product } costs { $price }. Fund the wallet, then tap Try again. Nothing was bought.
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
help-intro = I buy data, airtime, cable TV, electricity, exam PINs, recharge cards and bulk SMS from the merchant wallet.
help-limits = Limits: { $max } per purchase, { $daily } per day ({ $left } left today).
help-pin-required = A PIN is asked before every purchase.
help-no-pin = No PIN is required.
help-admin = Admin: { $commands } (with a user ID)
balance-text = 💰 Wallet balance: { $balance }
balance-failed = Could not read the balance
history-empty = No orders yet. Try /data or /airtime.
history-title = 🧾 Recent orders
history-tap = Tap a number for its details.
history-sms = Bulk SMS from { $sender } to { $numbers }
history-sms-pages = Bulk SMS from { $sender } to { $numbers }, { $pages } each
history-line = { $n }. { $date } { $what }, { $amount }: { $state }
history-line-ref = { $n }. { $date } { $what }, { $amount }: { $state } (ref { $ref })
status-usage = Usage: /status <reference>, e.g. /status Data123. Or open /history and tap an order.
status-not-found = No order with that reference in your history.
order-title = { $product } order of { $date }
unhandled-confirm-waiting = Tap Confirm or Cancel above, or send /cancel.
unhandled-text = I did not understand that. What would you like to do?

## Data and airtime flows

data-choose-network = Buy data: choose the network.
data-choose-plan = { $network } data: choose a plan.
data-no-plans = No data plans are available right now.
data-use-plan-buttons = Please choose a plan with the buttons above, or /cancel.
data-plan-chosen =
    { $network } data: { $plan }
    { $prompt }
data-plan-gone = That plan is no longer available. Nothing was bought.
data-description = { $network } data { $plan }
price-list-failed = Could not load the price list
network-use-buttons = Please choose with the buttons above, or /cancel.
phone-prompt = Send the { $network } phone number (e.g. 0803 123 4567).
phone-as-text = Please send the phone number as text, or /cancel.
phone-invalid-why = { $problem } Send 11 digits like 08031234567 (or +234 803 123 4567).
phone-problem-blank = That is not a Nigerian mobile number: it is empty.
phone-problem-letters = That is not a Nigerian mobile number: it has letters or symbols (only digits, spaces, dashes, brackets and a leading + are allowed).
phone-problem-length = That is not a Nigerian mobile number: it has the wrong number of digits (a mobile number has 11, like 08031234567).
phone-problem-prefix = That is not a Nigerian mobile number: { $prefix } is not the prefix of a mobile network (toll-free, premium and fixed-line numbers cannot get airtime, data or SMS; a ported number keeps its original prefix).
phone-problem-other = That is not a Nigerian mobile number.
phone-target = { $phone } ({ $network })
phone-target-ported = { $phone } ({ $network }, ported)
ported-question = { $phone } looks like { $detected }, not { $network }. Has this number been ported to { $network }?
ported-yes = Yes, it is on { $network }
ported-no = No, use another number
ported-confirmed = { $phone }: ported to { $network }.
ported-another = OK, send another phone number.
airtime-choose-network = Buy airtime: choose the network.
airtime-chosen = { $network } airtime.
airtime-amount-question = How much { $network } airtime? Tap an amount, or type one in naira (at least { $min }), e.g. 250.
airtime-amount-hint = Tap an amount or type it, or /cancel.
airtime-amount-chosen = { $network } airtime: { $amount }
airtime-too-small = The smallest airtime top-up is { $min }.
airtime-over-limit = That is above your per-purchase limit of { $limit }. Send a smaller amount.
airtime-description = { $network } airtime { $amount }
airtime-gets = { $amount } { $network } airtime on { $phone }
airtime-gets-ported = { $amount } { $network } airtime on { $phone } (ported)
airtime-pay-note = the site's price for { $amount } of airtime

## Bulk SMS

sms-sender-prompt = Bulk SMS. Send the sender ID (up to { $max } letters or digits, no spaces, e.g. MYSHOP).
sms-sender-as-text = Send the sender ID as text, or /cancel.
sms-sender-invalid = A sender ID is 1 to { $max } letters or digits, with no spaces or symbols (e.g. MYSHOP). Try again.
sms-file-unreadable = I could not read that file. Check it is a plain .txt or .csv file and try again.
sms-recipients-prompt = Now the recipients (up to { $max } numbers): paste the numbers (one per line, a name before a number is fine), or send a .txt or .csv file.
sms-recipients-hint = Paste the numbers or send a .txt/.csv file, or /cancel.
sms-file-type = Send a .txt or .csv file (or paste the numbers).
sms-file-too-large = That file is too large (limit { $kb } KB).
sms-no-numbers = I found no phone numbers there. Paste the numbers (one per line) or send a .txt/.csv file.
sms-message-prompt = Now send the message text.
sms-message-as-text = Send the message as text, or /cancel.
sms-message-empty = The message is empty: write the SMS text.
sms-message-invisible = The message has only spaces or invisible characters (such as zero-width spaces): write the SMS text.
sms-message-too-long = The message is { $n } characters; the most is { $max }. Shorten it by { $over }.
sms-cannot-send = Cannot send this
sms-too-many = At most { $max } recipients per job. Split the list and try again.
sms-numbers = { $n ->
    [one] 1 number
   *[other] { $n } numbers
}
sms-pages = { $n ->
    [one] 1 page
   *[other] { $n } pages
}
sms-characters = { $n ->
    [one] 1 character
   *[other] { $n } characters
}
sms-duplicates = { $n ->
    [one] 1 duplicate
   *[other] { $n } duplicates
}
sms-description = Bulk SMS from { $sender } ({ $pages })
sms-summary-from = Bulk SMS from { $sender }
sms-summary-recipients = Recipients: { $numbers }
sms-summary-recipients-dup = Recipients: { $numbers } ({ $duplicates } removed)
sms-summary-message = Message: { $characters } = { $pages } per number
sms-summary-cost = Cost: { $cost }
sms-summary-price = Price: { $price }
sms-summary-unicode = ⚠️ The message has characters that are not plain SMS text ({ $chars }). The site prices it by length: { $characters } = { $pages }. Phones may show them as "?"; remove them to be safe.
sms-found = Found { $numbers }.
sms-found-column = Found { $numbers } in the { $column } (other columns ignored).
sms-names-ignored = { $n ->
    [one] 1 line had a name before the number: the name was left out of the list.
   *[other] { $n } lines had a name before the number: the names were left out of the list.
}
sms-count-up = { $entries } entries read: { $used } used, { $duplicates } repeated (used once), { $left } left out.
sms-reason-toll-free = a toll-free 0800 number, which cannot receive SMS
sms-reason-letters = letters or symbols, not a number
sms-reason-length = the wrong number of digits
sms-reason-prefix = not the prefix of a mobile network
sms-too-many-now = That is { $n } numbers; one job takes at most { $max }. Send a shorter list (or split it into several jobs).
sms-bad-title = Left out ({ $n }, not Nigerian mobile numbers):
sms-bad-entry = { $where }: { $value }
sms-bad-entry-reason = { $where }: { $value } ({ $reason })
sms-bad-more = … and { $n } more

## PIN

pin-as-text = Send the PIN as a text message, or /cancel.
pin-locked-until = Your PIN is locked until { $until } (an admin can unlock you sooner).
pin-current = Send your current PIN. (I delete PIN messages right away.)
pin-wrong-left = Wrong PIN ({ $n } attempts left).
pin-locked-short = Too many wrong PINs: locked until { $until }.
pin-not-checked = PIN not checked.
pin-not-changed = { $why } Your PIN was not changed.
pin-new = Send a new PIN: 4 to 6 digits. (I delete the message right away.)
pin-digits = A PIN is 4 to 6 digits.
pin-repeat = Send the same PIN again to confirm.
pin-set = ✅ PIN set. I will ask for it before every purchase.
pin-mismatch = The two PINs did not match. Nothing changed.
pin-authorise = 🔒 Send your PIN to authorise this purchase. (I delete the message right away.)
pin-your-as-text = Send your PIN as a text message, or /cancel.
pin-wrong = Wrong PIN. { $n ->
    [one] 1 attempt
   *[other] { $n } attempts
} left.
pin-locked-purchases = Too many wrong PINs: purchases are locked until { $until }. Nothing was bought.
pin-order-settled = That order was already settled (its outcome is above); no PIN is needed for it.
pin-none = You have no PIN. Set one with /setpin. Nothing was bought.

## Admin

admin-allow-usage = Usage: /allow <telegram user id> (the number strangers are shown).
admin-allowed-told = ✅ { $user } may now use the bot. I told them.
admin-allowed-untold = ✅ { $user } may now use the bot. I could not message them yet: they should send /start.
admin-welcome = ✅ You can now use this bot. What would you like to do?
admin-deny-usage = Usage: /deny <telegram user id>
admin-cannot-deny-admin = Admins cannot be removed from chat; change BOT_ADMIN_IDS.
admin-denied = 🚫 { $user } can no longer use the bot.
admin-users = Allowed users:
admin-unlock-usage = Usage: /unlock <telegram user id>: lifts a PIN lockout (the PIN stays the same).
admin-no-pin = { $user } has no PIN: nothing to unlock.
admin-unlocked-user = 🔓 An admin unlocked your purchases. You can buy again with your PIN.
admin-unlocked = 🔓 { $user } is unlocked.
admin-resetpin-usage = Usage: /resetpin <telegram user id>: drops a forgotten PIN; the customer sets a new one.
admin-resetpin-user = 🔑 An admin reset your PIN. Set a new one with /setpin before your next purchase.
admin-resetpin-done = 🔑 { $user }'s PIN was reset; they were asked to set a new one.
admin-only = Only admins can do that.

## Gates, /cancel, errors

gate-slow-down = Too many requests, slow down
gate-not-allowed = You are not allowed to use this bot.
gate-private-bot = Sorry, this bot is private. Your Telegram user ID is { $id }. Ask the bot's admin to allow it.
gate-private-chat-only = Please use me in a private chat.
gate-private-chat = For your safety I only take orders in a private chat. Open a chat with @{ $bot }.
cancel-nothing = Nothing to cancel.
error-short = Something went wrong
error-long = Sorry, something went wrong. Please try again, and check /history before buying again.
repeat-order-gone = I cannot find that order any more.
# "Try again" under an order the provider refused at the purchase, naming a detail: only that detail is asked again
again-phone = The provider refused { $phone } for { $what }. The rest of the order is kept: send another number.
again-iuc = The provider refused the IUC number { $iuc } for { $what }. The rest of the order is kept: send another one.
again-meter = The provider refused the meter number { $meter } for { $what }. The rest of the order is kept: send another one.
again-recipients = The provider refused the list of numbers for { $what }. The sender and the message are kept: send the list again.
again-gone = That choice is no longer offered: start again with Try again. Nothing was bought.
sms-where-line = line { $n }
sms-where-row = row { $n }
sms-column-named = "{ $name }" column
sms-column-number = column { $n }
sms-empty-cell = (empty)

## Storefront mode (VTU_BOT_MODE=storefront): customers pay into their own account and buy from their wallet
cmd-fund = Fund your wallet (your account number)
help-fund = /fund – your account number: transfer to it to fund your wallet
help-sf-balance = /balance – your wallet
menu-fund = 🏦 Fund wallet
btn-fund = 🏦 Fund wallet
help-sf-history = /history – your orders (tokens and PINs kept) and payments
sf-history-empty = No orders or payments yet. Fund your wallet with /fund, then buy with /data or /airtime.
sf-history-no-orders = No orders yet.
sf-history-line = { $n }. { $date } { $what }, { $price }: { $state } (ref { $ref })
sf-history-what-to = { $product } to { $to }
sf-history-payments = 💸 Payments into your wallet
sf-history-payment = { $date } { $amount } (ref { $ref })
sf-history-failed = Could not read your history right now
sf-state-held = ⏳ being sent
sf-state-unknown = ⏳ being confirmed (your money is held, not spent)
sf-state-settled = ✅ delivered
sf-state-released = ❌ not sent, money back
sf-state-refunded = ↩️ failed, refunded
sf-hello = Hello { $name }! Buy data, airtime, cable TV, electricity, exam PINs and recharge cards, and send bulk SMS, from your own wallet here.
sf-help-intro = Fund your wallet by bank transfer to your own account number, then buy from it.
sf-account =
    🏦 Your account: { $account } ({ $bank })
    Transfer any amount to it: your wallet is credited as soon as the bank confirms.
    💰 Wallet: { $balance }
sf-account-failed = Could not open your account number right now
sf-balance = 💰 Your wallet: { $balance }
sf-balance-held =
    💰 Your wallet: { $balance } to spend
    ⏳ { $held } held for orders we are still checking
sf-payment-landed = 💸 { $amount } landed in your wallet. Balance: { $balance }
sf-owner-low-float = ⚠️ { $detail }
sf-wallet-short =
    Your wallet has { $available }; this costs { $price }. Nothing was taken.
    Fund it with /fund, then try again.
sf-wallet-empty =
    Your wallet is empty: fund it first, then buy. Nothing was taken.
    Tap Fund wallet to see your account number.
sf-wallet-below-cheapest =
    Your wallet has { $available }; the cheapest { $product } costs { $price }. Nothing was taken.
    Fund your wallet first: tap Fund wallet to see your account number.
sf-airtime-amount-question = How much { $network } airtime? Your wallet pays up to { $max } at your price: tap an amount, or type one in naira from { $min } to { $max }, e.g. 250.
sf-electricity-amount-prompt = How much electricity? Your wallet pays up to { $max } at your price: type the amount in naira, from { $min } to { $max }, e.g. 2000.
sf-amount-over-wallet = Your wallet pays up to { $max } of this at your price. Send a smaller amount, or fund your wallet with /fund first.
sf-float-refused =
    The shop cannot fill this order right now. Nothing was taken from your wallet; please try again later.
sf-quote-failed = Could not price this order
sf-confirm-from-wallet = 💰 { $price } will be taken from your wallet.
sf-sending =
    ⏳ Buying… don't pay again.
    { $gets }
sf-receipt =
    ✅ Done: { $gets }
    Paid { $price } from your wallet. Ref: { $ref }
    💰 Wallet: { $balance }
sf-refunded-now =
    ❌ The vendor could not deliver: { $gets }
    { $price } is back in your wallet. 💰 Wallet: { $balance }
sf-released-now =
    Not bought: nothing was taken for { $gets }.
    💰 Wallet: { $balance }
sf-unknown-now =
    ⏳ Not sure yet whether this went through: { $gets }
    { $price } is held (not spent) until we know; we will message you. Do not buy it again meanwhile.
sf-offer-expired = This confirm has expired: nothing was taken. Start again to see today's price.
sf-order-error =
    Something went wrong with this order (ref { $ref }).
    If money was held we will message you when it is settled.
sf-later-settled = ✅ Your order went through: { $price } paid. 💰 Wallet: { $balance }
sf-later-released =
    Your order was not bought: the held { $price } is spendable again.
    💰 Wallet: { $balance }
sf-later-refunded =
    ↩️ Your order failed at the vendor: { $price } was refunded to your wallet.
    💰 Wallet: { $balance }
cmd-credit = Credit a customer's wallet: /credit <telegram id> <naira> <reason>
cmd-debit = Debit a customer's wallet: /debit <telegram id> <naira> <reason>
sf-credit-usage =
    Type /credit, the customer's Telegram id, the amount in naira and the reason,
    e.g. /credit 123456789 500 refund for a failed DSTV order
sf-debit-usage =
    Type /debit, the customer's Telegram id, the amount in naira and the reason,
    e.g. /debit 123456789 500 transfer reversed by the bank
sf-credited = ✅ Credited { $amount } to { $customer } ({ $reason }). Their wallet: { $balance }
sf-debited = ✅ Debited { $amount } from { $customer } ({ $reason }). Their wallet: { $balance }
sf-adjust-reason = The reason needs at least 3 characters, e.g. refund for a failed DSTV order.
sf-adjust-already = This command was already applied. { $customer }'s wallet: { $balance }
sf-debit-too-much = { $customer }'s wallet has only { $available } to debit: nothing was taken.
sf-credited-you = 💸 The shop credited { $amount } to your wallet ({ $reason }). Balance: { $balance }
sf-debited-you = The shop debited { $amount } from your wallet ({ $reason }). Balance: { $balance }

# Cable TV, electricity, exam PINs, recharge cards (both modes)
cmd-cable = Pay a cable TV subscription (GOTV, DSTV, Startimes)
cmd-electricity = Buy an electricity token
cmd-exampin = Buy exam result checker PINs (WAEC, NECO…)
cmd-cards = Buy recharge card PINs to print
help-cable = /cable – pay a cable TV subscription (the IUC is checked first)
help-electricity = /electricity – buy an electricity token (the meter is checked first)
help-exampin = /exampin – buy exam result checker PINs
help-cards = /cards – buy recharge card PINs, with a sheet to print
menu-cable = 📺 Cable TV
menu-electricity = 💡 Electricity
menu-exampin = 🎓 Exam PINs
menu-cards = 🎫 Recharge cards
product-cable = Cable TV
product-electricity = Electricity
product-exam-pin = Exam PINs
product-recharge-card = Recharge cards
input-problem =
    { $problem }
    { $hint }

## Typed values refused (bot/refusals.ts: the client's invalid_input, said by its field and details)

input-refused = That was not accepted. Check what you typed and send it again.
input-amount = That is not an amount in naira: type digits, e.g. 250 or 250.50.
input-amount-plain = Type the amount as a plain number: { $example } (digits and at most two decimals; no ₦, commas or spaces).
input-amount-decimals = An amount has at most two decimals: type e.g. { $example }.
input-amount-negative = An amount cannot be below zero: type the amount to pay, e.g. 250.
input-amount-too-large = That amount is far too large: type the amount in naira, e.g. 5000.
input-amount-below = The smallest amount here is { $min }.
input-amount-above = The most for one purchase here is { $max }. Send a smaller amount.
input-quantity = Type a whole number from { $min } to { $max }.
input-plan = That plan is not available now: choose another one.
account-check-failed = Could not check the number with the provider
cable-none = No cable TV packages are available right now.
cable-choose-provider = 📺 Cable TV. Choose the provider:
cable-choose-package = { $provider }: choose the package.
cable-package-chosen =
    { $package }.
    { $prompt }
account-digits = That is not a { $what }: it has { $min } to { $max } digits, and no letters.
cable-iuc-what = IUC / smart card number
cable-iuc-prompt = Send the { $provider } IUC / smart card number ({ $min }–{ $max } digits, on the decoder or its card).
cable-iuc-unknown = { $provider } does not know the IUC number { $iuc }. Nothing was bought. Check the number on the decoder and send it again, or /cancel.
cable-description = { $provider } { $package }
cable-target = IUC { $iuc } ({ $name })
meter-prepaid = Prepaid
meter-postpaid = Postpaid
meter-what = meter number
meter-prompt = Send the { $disco } meter number ({ $min }–{ $max } digits).
meter-unknown = { $disco } does not know the meter number { $meter }. Nothing was bought. Check the number on the meter or a recent receipt and send it again, or /cancel.
meter-holder = ✅ Meter { $meter }: { $name }
meter-holder-address = ✅ Meter { $meter }: { $name }, { $address }
meter-target = meter { $meter } ({ $name })
electricity-none = No electricity companies are available right now.
electricity-choose-disco = 💡 Electricity. Choose the electricity company:
electricity-choose-type = { $disco }: is the meter prepaid or postpaid?
electricity-type-chosen =
    { $type } meter.
    { $prompt }
electricity-amount-prompt = How much electricity? Type the amount in naira, from { $min } to { $max }, e.g. 2000.
electricity-too-small = The smallest electricity payment is { $min }.
electricity-too-large = That is above { $max }, the most for one token here. Send a smaller amount.
electricity-description = { $disco } { $type } { $amount }
exam-none = No exam PINs are available right now.
exam-button = { $exam } – { $price } each
exam-choose = 🎓 Exam result checker PINs. Choose the exam:
exam-how-many = How many { $exam } PINs?
exam-description = { $n } × { $exam } result checker { $n ->
        [one] PIN
       *[other] PINs
    }
exam-chosen = { $what }.
cards-none = No recharge cards are available right now.
cards-choose-network = 🎫 Recharge cards. Choose the network:
cards-button = { $face } card – { $price } each
cards-choose-value = { $network } recharge cards: choose the value.
cards-how-many = How many cards? Type a number from { $min } to { $max }.
cards-label = { $network } { $face }
cards-chosen =
    { $card } cards.
    { $prompt }
cards-description = { $n } × { $card } recharge { $n ->
        [one] card
       *[other] cards
    }
delivered-token = 🔑 TOKEN: { $token }
delivered-units = Units: { $units }
delivered-pin = PIN { $n }: { $pin }
delivered-card = { $n }. PIN { $pin }
delivered-card-serial = { $n }. PIN { $pin } (serial { $serial })
history-token = 🔑 { $token }
sheet-title = { $what } (ref { $ref })
sheet-serial = Serial: { $serial }
sheet-load = Load: { $code }
sheet-caption = 🖨️ The PINs on a sheet to print (open it in a browser and print).

## The owner's desk (storefront): seller's prices, /prices, reports, customers, broadcast, support, alerts
sf-price-changed = The price changed since you saw it: nothing was taken. Start again to see the new price.
cmd-prices = Price list
menu-prices = 🏷️ Prices
help-prices = /prices – today's prices
cmd-setprice = Set a price: /setprice <product> [plan type | plan <id>] <5% or ₦20> [reseller]
cmd-tier = Set a customer's price tier: /tier <telegram id> regular|reseller
prices-head = 🏷️ Today's prices
prices-head-tier = 🏷️ Today's prices ({ $tier })
prices-line = { $name }: { $price }
prices-section-data = 📶 { $network } data
prices-section-airtime = 📱 Airtime
prices-airtime-item = { $amount } { $network } airtime
prices-section-cable = 📺 Cable TV
prices-section-exam = 🎓 Exam pins
prices-exam-item = { $exam } pin
prices-section-recharge = 🎫 Recharge cards
prices-recharge-item = { $network } { $amount } card
prices-section-electricity = 💡 Electricity
prices-electricity-item = { $amount } token
prices-section-sms = ✉️ Bulk SMS
prices-sms-item = 1 page to { $numbers }
setprice-usage =
    Type /setprice, the product, a plan type or "plan <id>" if you like, then the markup (5% or ₦20),
    and "reseller" for resellers' prices, e.g.
    /setprice data MTN SME 5%
    /setprice data plan 7 ₦20
    /setprice airtime 2% reseller
    /setprice sms ₦1 (bulk SMS: naira are added to each page sent to each number)
    /setprice all 5%
    /setprice data MTN SME off (back to the general price)
    Products: data, airtime, cable, electricity, exam, recharge, sms, all
setprice-every-product = every product
setprice-rule-plan = plan { $id }
setprice-percent-invalid = A percent markup is 0% to 100%, e.g. 5% or 2.5%.
setprice-fixed-invalid = A naira markup is ₦0 or more, e.g. ₦20.
setprice-tier-invalid = A price tier is regular or reseller.
setprice-per-page = { $amount } a page per number
setprice-unknown = There is no "{ $what }" here. Plan types: { $types }
setprice-none = There was no price set for { $rule }: nothing changed.
setprice-set = ✅ { $rule }: vendor's cost + { $markup }. New prices:
setprice-removed = ✅ { $rule }: back to the general price. Prices now:
setprice-margin = { $name }: cost { $cost } → { $price } (margin { $margin })
setprice-more = … and { $count } more
tier-usage = Type /tier, the customer's Telegram id and regular or reseller, e.g. /tier 123456789 reseller
tier-set = ✅ { $customer } now pays { $tier } prices.
cmd-report = Report: /report [yesterday | YYYY-MM-DD [YYYY-MM-DD]]
report-usage =
    Type /report for today, /report yesterday, /report 2026-11-24 for a day
    or /report 2026-11-01 2026-11-30 for a range of days (Lagos time).
report-date-invalid = There is no day "{ $day }": type a date as YYYY-MM-DD, e.g. 2026-11-24.
report-range = A report covers 1 to { $max } days, the first day before the last.
report-title-range = { $first } to { $last }
report-csv = Every order, payment, refund and adjustment ({ $rows } lines), with the totals.
owner-summary-day = { $day }
owner-summary =
    📊 { $title }
    Orders: { $orders }, sold for { $sales }
    Vendor's cost: { $cost }
    Refunds: { $refunds }
    Profit: { $profit }
    Payments in: { $payments }, { $paidIn } (provider fees { $fees })
    Profit after fees: { $net }
cmd-customer = Look up a customer: /customer <telegram id or @username>
customer-usage = Type /customer and the customer's Telegram id or @username, e.g. /customer @ada
customer-not-found = No customer "{ $who }": they appear here once they have opened the bot.
customer-card =
    👤 { $name } ({ $username }, { $id }), { $tier } prices, since { $since }
    💰 Wallet: { $balance } ({ $held } held, { $available } to spend)
customer-entries = Recent entries:
customer-no-entries = No entries yet.
customer-entry = { $at } { $amount } { $reason } ({ $ref })
ledger-payment = payment
ledger-payment-fee = payment (provider fee, borne by the shop)
ledger-unpark = payment assigned by the owner
ledger-hold = held for an order
ledger-settle = order paid from the hold
ledger-release = order not bought: the hold given back
ledger-refund = refund
ledger-manual-credit = credit by the owner
ledger-manual-debit = debit by the owner
cmd-broadcast = Message every customer: /broadcast <text>
broadcast-usage = Type /broadcast and the message (up to 4000 characters), e.g. /broadcast MTN data is back!
broadcast-started = 📣 Sending to { $count } customers…
broadcast-done = 📣 Broadcast done: { $sent } sent, { $failed } could not be reached.
cmd-reply = Answer a customer: /reply <telegram id> <text>
reply-usage = Type /reply, the customer's Telegram id and your answer, e.g. /reply 123456789 It is sorted now.
reply-sent = ✅ Sent to { $customer }.
reply-failed = Could not reach { $customer } (they may have blocked the bot).
support-answer = 💬 From the shop: { $text }
cmd-support = Message the shop
help-support = /support <message> – a question for the shop
support-usage = Type /support and your message, e.g. /support my data did not arrive
support-to-owner =
    💬 Support from { $who } ({ $id }):
    { $text }
    Answer with /reply { $id } <text>
support-sent = ✅ Your message went to the shop; the answer comes here.
owner-alert-token =
    ⚠️ The vendor refused the bot's API token: every order fails until it is fixed.
    Check VTU_API_TOKEN (and VTU_BASE_URL) and restart the bot.
owner-access-request =
    🙋 { $user } asked to use the bot.
    /allow { $id } to let them in.
admin-pending = Waiting for access:

## /language (each locale file names itself with language-name)

language-name = English
language-choose = Choose your language:
language-set = I will speak { $language } now.
