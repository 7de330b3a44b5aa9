// This folder never runs inside n8n: the repository's own lint rules (see ../eslint.repo.mjs).
export { default } from '../eslint.repo.mjs';
