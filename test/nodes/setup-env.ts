/** Must be imported before n8n-core: InstanceSettings writes its config into N8N_USER_FOLDER. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import 'reflect-metadata';

if (!process.env.N8N_USER_FOLDER || !process.env.N8N_USER_FOLDER.includes('vtu-n8n-')) {
	process.env.N8N_USER_FOLDER = mkdtempSync(join(tmpdir(), 'vtu-n8n-'));
}
process.env.N8N_DIAGNOSTICS_ENABLED = 'false';
