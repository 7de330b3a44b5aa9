/** The local Bot API lives in tools/ (npm run bot:try uses it too); the tests import it from here. */
export * from '../../tools/local-bot-api';
