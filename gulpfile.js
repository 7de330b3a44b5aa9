// Copies node and credential icons next to the compiled files (tsc does not copy SVGs).
const { src, dest } = require('gulp');

function buildIcons() {
  return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}', 'icons/**/*.{png,svg}'], {
    base: '.',
    encoding: false,
  }).pipe(dest('dist'));
}

exports['build:icons'] = buildIcons;
