// n8n's community-node starter config (`n8n-node new` writes the same file), with one change:
// printWidth 120 instead of 100, the repository's line limit.
module.exports = {
	semi: true,
	trailingComma: 'all',
	bracketSpacing: true,
	useTabs: true,
	tabWidth: 2,
	arrowParens: 'always',
	singleQuote: true,
	quoteProps: 'as-needed',
	endOfLine: 'lf',
	printWidth: 120,
};
