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
