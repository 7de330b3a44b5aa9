/** The local Bot API lives in bot/ (npm run bot:try uses it too); the tests import it from here. */
export * from '../../bot/local-bot-api';
