'use strict';
/**
 * Real-n8n e2e harness (plain CommonJS; runs under Node 20 or newer).
 *
 * Starts ONE real `n8n start` (the version of N8N_E2E_VERSION, default: n8n-versions.json's
 * default, with the Node it needs, from test/n8n/install.sh's cache) on a
 * loopback port with an isolated N8N_USER_FOLDER in which a community package directory
 * is symlinked, creates the owner account, and drives it through n8n's internal REST API
 * (the one the editor uses). Typical use:
 *
 *   const { startN8n } = require('./harness');
 *   const n8n = await startN8n({ packageDir: repoRoot });          // ~10-20 s once
 *   const cred = await n8n.createCredential({ data: { baseUrl, apiToken } }); // type vtuApi
 *   const run = await n8n.runWorkflow(workflowJson);               // ~0.1-0.5 s each
 *   run.status;                  // 'success' | 'error' | ...
 *   run.nodeOutput('VTU Data');  // [{...json}, ...] of output 0, last run of that node
 *   run.nodeError('VTU Data');   // { message, description, httpCode, ... } or undefined
 *   await n8n.testCredential({ id: cred.id });  // { status: 'OK' | 'Error', message }
 *   await n8n.stop();
 *
 * A VTU test file does all of its set-up with useVtuN8n() (the sandbox, n8n, the credential, teardown).
 *
 * Credentials in workflow JSON: a node's `credentials: { vtuApi: { id, name } }` entry
 * whose id is missing or unknown is pointed at the default credential of that type (the
 * last one created through createCredential, or the one passed as `credentials` option).
 * A node needing a credential type but with no entry at all gets one too.
 *
 * Polling triggers (see README.md next to this file):
 *   - manual ("Execute step"): runWorkflow(wf) with the trigger as start node → poll() runs
 *     with getMode() === 'manual'; static data changes are NOT saved in that mode.
 *   - active: activateWorkflow(id) runs one poll at activation; pollNow(id) forces another
 *     poll by deactivating + re-activating (n8n's minimum poll interval is 1 min); both
 *     return the executions the polls produced. getStaticData(id) shows persisted state.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const fsp = require('node:fs/promises');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const HERE = __dirname;
const REPO_ROOT = path.resolve(HERE, '..', '..');
const N8N_VERSION = process.env.N8N_E2E_VERSION || require('./n8n-versions.json').default;
const DEFAULT_OWNER = Object.freeze({
	email: 'owner@example.com',
	firstName: 'Vtu',
	lastName: 'Owner',
	password: 'VtuDemo-Passw0rd',
});

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** A response body as JSON, or `fallback` when it is empty or not JSON. */
function jsonOr(text, fallback) {
	if (!text) return fallback;
	try {
		return JSON.parse(text);
	} catch {
		return fallback;
	}
}

/** Runs install.sh (idempotent, cached) and returns { cache, node, bin, flatted }. */
function ensureInstalled({ quiet = true } = {}) {
	const cache = process.env.N8N_E2E_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-vtu', `n8n-${N8N_VERSION}`);
	const envFile = path.join(cache, 'env.sh');
	const marker = path.join(cache, '.installed');
	if (!(fs.existsSync(marker) && fs.existsSync(envFile))) {
		const { execFileSync } = require('node:child_process');
		execFileSync('bash', [path.join(HERE, 'install.sh')], {
			stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
			env: { ...process.env, N8N_E2E_CACHE: cache, N8N_E2E_VERSION: N8N_VERSION },
		});
	}
	const vars = Object.fromEntries(
		fs
			.readFileSync(envFile, 'utf8')
			.split('\n')
			.filter((l) => l.includes('='))
			.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
	);
	return {
		cache,
		node: vars.N8N_E2E_NODE,
		bin: vars.N8N_E2E_BIN,
		appDir: path.join(cache, 'app'),
	};
}

function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/**
 * Creates an isolated user folder: <dir>/.n8n/nodes/node_modules/<package name> → packageDir
 * (a symlink; n8n finds `n8n-nodes-*` there at start-up and loads it as a community
 * package, node types `<package name>.<node name>`).
 */
async function prepareUserFolder({ packageDir = REPO_ROOT, userFolder } = {}) {
	const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
	if (!pkg.n8n) throw new Error(`${packageDir}/package.json has no "n8n" section`);
	for (const f of [...(pkg.n8n.nodes || []), ...(pkg.n8n.credentials || [])]) {
		if (!fs.existsSync(path.join(packageDir, f))) {
			throw new Error(`${pkg.name}: ${f} listed in package.json "n8n" does not exist (run npm run build?)`);
		}
	}
	const dir = userFolder || (await fsp.mkdtemp(path.join(os.tmpdir(), 'n8n-e2e-')));
	const nodesDir = path.join(dir, '.n8n', 'nodes');
	await fsp.mkdir(path.join(nodesDir, 'node_modules', ...pkg.name.split('/').slice(0, -1)), {
		recursive: true,
	});
	const link = path.join(nodesDir, 'node_modules', pkg.name);
	await fsp.rm(link, { force: true, recursive: false }).catch(() => {});
	await fsp.symlink(path.resolve(packageDir), link, 'dir');
	await fsp.writeFile(
		path.join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [pkg.name]: pkg.version } }, null, 2),
	);
	return { userFolder: dir, packageName: pkg.name, nodesDir };
}

function n8nEnv({ userFolder, port, brokerPort, extra = {} }) {
	return {
		...process.env,
		N8N_USER_FOLDER: userFolder,
		N8N_PORT: String(port),
		// n8n 2.x always starts its task broker (Code node runners), by default on 5679: a second n8n
		// on the machine (the demo, another test) would fail to start
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}`,
		WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_COMMUNITY_PACKAGES_ENABLED: 'true',
		N8N_RUNNERS_ENABLED: 'false',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'false',
		N8N_GIT_NODE_DISABLE_BARE_REPOS: 'true',
		DB_SQLITE_POOL_SIZE: '2',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
		EXECUTIONS_DATA_SAVE_ON_ERROR: 'all',
		// start-up detection waits for the info-level "Editor is now accessible" line: keep >= info
		N8N_LOG_LEVEL: process.env.N8N_E2E_LOG_LEVEL || 'info',
		N8N_LOG_OUTPUT: 'console',
		NODE_ENV: 'production',
		...extra,
		...(extra.N8N_LOG_LEVEL && !['info', 'debug'].includes(extra.N8N_LOG_LEVEL) ? { N8N_LOG_LEVEL: 'info' } : {}),
	};
}

/** One execution, fetched from n8n's DB through REST, with helpers over its run data. */
class RunResult {
	constructor(execution, { durationMs } = {}) {
		this.execution = execution;
		this.executionId = execution.id;
		this.status = execution.status;
		this.mode = execution.mode;
		this.finished = execution.finished;
		this.durationMs = durationMs;
		this.data = execution.data || {};
		this.runData = (this.data.resultData && this.data.resultData.runData) || {};
		this.error = this.data.resultData && this.data.resultData.error;
		this.lastNodeExecuted = this.data.resultData && this.data.resultData.lastNodeExecuted;
	}

	/** Names of nodes that ran. */
	get nodesExecuted() {
		return Object.keys(this.runData);
	}

	/** Raw task data of a node run ({ data: { main: [[items]] }, error, executionTime, ... }). */
	nodeRun(nodeName, runIndex = -1) {
		const runs = this.runData[nodeName];
		if (!runs || runs.length === 0) return undefined;
		return runs[runIndex < 0 ? runs.length + runIndex : runIndex];
	}

	/** Full items ({ json, binary, pairedItem, error }) of one output of one run. */
	nodeItems(nodeName, outputIndex = 0, runIndex = -1) {
		const run = this.nodeRun(nodeName, runIndex);
		if (!run) throw new Error(`node "${nodeName}" did not run (ran: ${this.nodesExecuted.join(', ')})`);
		const main = (run.data && run.data.main) || [];
		return main[outputIndex] || [];
	}

	/** The `json` of every item of one output (default: output 0 of the last run). */
	nodeOutput(nodeName, outputIndex = 0, runIndex = -1) {
		return this.nodeItems(nodeName, outputIndex, runIndex).map((i) => i.json);
	}

	/** The error a node threw (NodeApiError/NodeOperationError serialised), if any. */
	nodeError(nodeName, runIndex = -1) {
		const run = this.nodeRun(nodeName, runIndex);
		return run ? run.error : undefined;
	}

	toJSON() {
		return {
			executionId: this.executionId,
			status: this.status,
			mode: this.mode,
			error: this.error,
			runData: this.runData,
		};
	}
}

class N8nInstance {
	constructor({ child, port, userFolder, packageName, owner, install, logs, keepUserFolder }) {
		this.child = child;
		this.port = port;
		this.baseUrl = `http://127.0.0.1:${port}`;
		this.userFolder = userFolder;
		this.packageName = packageName;
		this.owner = owner;
		this.install = install;
		this.logs = logs; // array of output lines (last 2000)
		this.keepUserFolder = keepUserFolder;
		this.cookie = undefined;
		this.browserId = 'n8n-e2e-harness';
		this.defaultCredentials = {}; // type → { id, name }
		this.activeWorkflows = new Set(); // ids activated here and not deactivated since
		this.stopped = false;
		this.timings = {};
	}

	/** Prefixes a node name with the package name: nodeType('vtuData') → 'n8n-nodes-vtu.vtuData'. */
	nodeType(name) {
		return `${this.packageName}.${name}`;
	}

	// ---- REST -----------------------------------------------------------------------------
	/** raw: { status, json, text, headers }; bytes: { status, buffer, headers } (binary downloads). */
	async request(method, urlPath, body, { raw = false, bytes = false, headers = {} } = {}) {
		let res;
		for (let attempt = 1; ; attempt++) {
			try {
				res = await fetch(this.baseUrl + urlPath, {
					method,
					headers: {
						'content-type': 'application/json',
						'browser-id': this.browserId,
						...(this.cookie ? { cookie: this.cookie } : {}),
						...headers,
					},
					body: body === undefined ? undefined : JSON.stringify(body),
				});
				break;
			} catch (e) {
				// a kept-alive socket the busy server closed as we reused it ("fetch failed": other side closed):
				// a GET is safe to send again; anything else is reported with the cause
				const cause = e.cause && (e.cause.code || e.cause.message);
				if (method === 'GET' && attempt < 3 && cause) continue;
				e.message = `n8n ${method} ${urlPath}: ${e.message}${cause ? ` (${cause})` : ''}`;
				throw e;
			}
		}
		const setCookie = res.headers.getSetCookie ? res.headers.getSetCookie() : [];
		for (const c of setCookie) {
			if (c.startsWith('n8n-auth=')) this.cookie = c.split(';')[0];
		}
		if (bytes) return { status: res.status, buffer: Buffer.from(await res.arrayBuffer()), headers: res.headers };
		const text = await res.text();
		const json = jsonOr(text, undefined);
		if (raw) return { status: res.status, json, text, headers: res.headers };
		if (!res.ok) {
			const msg = (json && (json.message || (json.error && json.error.message))) || text.slice(0, 300);
			const err = new Error(`n8n ${method} ${urlPath} → HTTP ${res.status}: ${msg}`);
			err.status = res.status;
			err.body = json || text;
			throw err;
		}
		return json && Object.prototype.hasOwnProperty.call(json, 'data') ? json.data : json;
	}

	async setupOwner(owner = this.owner) {
		try {
			await this.request('POST', '/rest/owner/setup', owner);
		} catch (e) {
			if (!/already setup/i.test(String(e.message))) throw e;
			await this.login(owner);
		}
		this.owner = owner;
	}

	async login(owner = this.owner) {
		await this.request('POST', '/rest/login', { emailOrLdapLoginId: owner.email, password: owner.password });
	}

	/** Node types n8n loaded from the community package (names with package prefix). */
	async loadedNodeTypes() {
		const { json } = await this.request('GET', '/types/nodes.json', undefined, { raw: true });
		return (json || []).map((n) => n.name).filter((n) => n.startsWith(this.packageName + '.'));
	}

	async loadedCredentialTypes() {
		const { json } = await this.request('GET', '/types/credentials.json', undefined, { raw: true });
		return (json || []).map((c) => c.name);
	}

	// ---- credentials ----------------------------------------------------------------------
	/**
	 * Creates a credential (n8n encrypts it). Becomes the default for its type unless
	 * `makeDefault: false`. Returns { id, name, type }.
	 */
	async createCredential({ name, type = 'vtuApi', data, makeDefault = true }) {
		const cred = await this.request('POST', '/rest/credentials', {
			name: name || `${type} ${Date.now()}`,
			type,
			data,
		});
		const ref = { id: cred.id, name: cred.name, type: cred.type };
		if (makeDefault) this.defaultCredentials[type] = ref;
		return ref;
	}

	/** Stored credentials ({ id, name, type, ... }), optionally only those with this name. */
	async listCredentials({ name } = {}) {
		const all = (await this.request('GET', '/rest/credentials')) || [];
		return name === undefined ? all : all.filter((c) => c.name === name);
	}

	/** Stored workflows ({ id, name, active, ... }), optionally only those with this name. */
	async listWorkflows({ name } = {}) {
		const res = await this.request('GET', '/rest/workflows');
		const all = Array.isArray(res) ? res : (res && res.data) || [];
		return name === undefined ? all : all.filter((w) => w.name === name);
	}

	async updateCredential(id, { name, type, data }) {
		const current = await this.request('GET', `/rest/credentials/${id}`);
		return await this.request('PATCH', `/rest/credentials/${id}`, {
			name: name || current.name,
			type: type || current.type,
			data,
		});
	}

	async deleteCredential(id) {
		await this.request('DELETE', `/rest/credentials/${id}`);
		for (const [t, ref] of Object.entries(this.defaultCredentials)) {
			if (ref.id === id) delete this.defaultCredentials[t];
		}
	}

	/** Decrypted data of a stored credential (as the editor sees it; secrets are redacted). */
	async getCredential(id) {
		return await this.request('GET', `/rest/credentials/${id}?includeData=true`);
	}

	/**
	 * Runs the credential type's test (what the editor's "Test" / Save does).
	 *   testCredential({ id })                   → test a stored credential
	 *   testCredential({ type, data })           → creates a temporary credential, tests, deletes it
	 * Returns { status: 'OK' | 'Error', message }.
	 */
	async testCredential({ id, type = 'vtuApi', data, name }) {
		let tempId;
		if (!id) {
			const c = await this.createCredential({
				name: name || `test ${type} ${Date.now()}`,
				type,
				data,
				makeDefault: false,
			});
			id = tempId = c.id;
		}
		try {
			const stored = await this.request('GET', `/rest/credentials/${id}?includeData=true`);
			return await this.request('POST', '/rest/credentials/test', {
				credentials: { id, name: stored.name, type: stored.type, data: data || stored.data },
			});
		} finally {
			if (tempId) await this.deleteCredential(tempId).catch(() => {});
		}
	}

	// ---- workflows ------------------------------------------------------------------------
	/** Fills in credential references (see module comment). Returns a copy. */
	async resolveCredentials(workflow, overrides = {}) {
		const defaults = { ...this.defaultCredentials, ...overrides };
		const wf = JSON.parse(JSON.stringify(workflow));
		let known;
		const types = await this.#nodeCredentialTypes();
		for (const node of wf.nodes || []) {
			const needed = types.get(`${node.type}@${node.typeVersion}`) || types.get(node.type) || [];
			node.credentials = node.credentials || {};
			for (const t of needed) if (!node.credentials[t] && defaults[t]) node.credentials[t] = {};
			for (const [t, ref] of Object.entries(node.credentials)) {
				if (!known) known = new Set((await this.request('GET', '/rest/credentials')).map((c) => c.id));
				if (!ref || !ref.id || !known.has(ref.id)) {
					if (defaults[t]) node.credentials[t] = { id: defaults[t].id, name: defaults[t].name };
				}
			}
			if (Object.keys(node.credentials).length === 0) delete node.credentials;
		}
		return wf;
	}

	async #nodeCredentialTypes() {
		if (!this._credTypes) {
			const { json } = await this.request('GET', '/types/nodes.json', undefined, { raw: true });
			const m = new Map();
			for (const d of json || []) {
				const creds = (d.credentials || []).map((c) => c.name);
				const versions = Array.isArray(d.version) ? d.version : [d.version];
				for (const v of versions) m.set(`${d.name}@${v}`, creds);
				if (!m.has(d.name)) m.set(d.name, creds);
			}
			this._credTypes = m;
		}
		return this._credTypes;
	}

	/** Imports (creates) a workflow; returns the stored workflow ({ id, versionId, nodes, ... }). */
	async importWorkflow(workflow, { credentials } = {}) {
		const wf = await this.resolveCredentials(workflow, credentials);
		const body = {
			name: wf.name || `e2e ${Date.now()}`,
			nodes: wf.nodes,
			connections: wf.connections || {},
			settings: wf.settings || { executionOrder: 'v1' },
			pinData: wf.pinData || {},
			staticData: wf.staticData || undefined,
			active: false,
		};
		return await this.request('POST', '/rest/workflows', body);
	}

	async getWorkflow(id) {
		return await this.request('GET', `/rest/workflows/${id}`);
	}

	async deleteWorkflow(id) {
		await this.request('POST', `/rest/workflows/${id}/archive`).catch(() => {});
		await this.request('DELETE', `/rest/workflows/${id}`).catch(() => {});
	}

	/** Workflow static data as persisted in the DB (e.g. { 'node:VTU Trigger': {...} }). */
	async getStaticData(id) {
		const wf = await this.getWorkflow(id);
		return wf.staticData || {};
	}

	/**
	 * Runs a workflow like the editor's "Execute workflow" (mode 'manual') and waits for it.
	 *   workflow: workflow JSON (imported first) or the id of an imported workflow
	 *   opts.trigger: name of the start node (default: the first trigger-like node that has
	 *                 no incoming connection)
	 *   opts.destinationNode: stop after this node
	 *   opts.keep: keep the imported workflow (default true; ids are cheap)
	 * Returns a RunResult.
	 */
	async runWorkflow(workflow, opts = {}) {
		const t0 = Date.now();
		const stored =
			typeof workflow === 'string' || typeof workflow === 'number'
				? await this.getWorkflow(String(workflow))
				: await this.importWorkflow(workflow, { credentials: opts.credentials });
		const trigger = opts.trigger || pickStartNode(stored);
		const body = {
			workflowData: {
				id: stored.id,
				name: stored.name,
				nodes: stored.nodes,
				connections: stored.connections,
				settings: stored.settings,
				pinData: stored.pinData || {},
				staticData: stored.staticData,
				versionId: stored.versionId,
				active: false,
			},
			triggerToStartFrom: { name: trigger },
		};
		if (opts.destinationNode) body.destinationNode = opts.destinationNode;
		const before = opts.webhook ? new Set((await this.listExecutions(stored.id)).map((e) => e.id)) : undefined;
		const res = await this.request('POST', `/rest/workflows/${stored.id}/run`, body);
		let executionId = res && res.executionId;
		let webhookResponse;
		if (res && res.waitingForWebhook) {
			if (!opts.webhook) {
				throw new Error(
					`workflow ${stored.id}: start node "${trigger}" waits for a webhook; pass { webhook: { path, method, body } }, ` +
						'pin data on the trigger (workflow.pinData), or start from a Manual Trigger',
				);
			}
			webhookResponse = await this.callWebhook(opts.webhook.path, { ...opts.webhook, test: true });
			const fresh = await this.#collectNewExecutions(stored.id, before, {
				settleMs: 100,
				timeoutMs: opts.timeoutMs || 60000,
				min: 1,
			});
			executionId = fresh[fresh.length - 1].executionId;
		}
		const execution = await this.waitForExecution(executionId, opts);
		const result = new RunResult(execution, { durationMs: Date.now() - t0 });
		result.workflowId = stored.id;
		if (webhookResponse) result.webhookResponse = webhookResponse;
		return result;
	}

	/**
	 * Calls a Webhook node: production URL /webhook/<path> (workflow must be active) or, with
	 * test: true, the editor's test URL /webhook-test/<path>. Returns { status, headers, body }.
	 */
	async callWebhook(webhookPath, { method = 'POST', body, headers = {}, query, test = false } = {}) {
		const qs = query ? `?${new URLSearchParams(query)}` : '';
		const url = `${this.baseUrl}/${test ? 'webhook-test' : 'webhook'}/${String(webhookPath).replace(/^\//, '')}${qs}`;
		const res = await fetch(url, {
			method,
			headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
			body: body === undefined || method === 'GET' ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
		});
		const text = await res.text();
		return { status: res.status, headers: Object.fromEntries(res.headers), body: jsonOr(text, text) };
	}

	/** Waits for executions of a workflow that are not in `beforeIds` (e.g. after callWebhook). */
	async waitForNewExecutions(workflowId, beforeIds, { min = 1, settleMs = 200, timeoutMs = 30000 } = {}) {
		return await this.#collectNewExecutions(workflowId, new Set(beforeIds), { settleMs, timeoutMs, min });
	}

	/** Ids of a workflow's current executions (pass to waitForNewExecutions). */
	async executionIds(workflowId) {
		return (await this.listExecutions(workflowId)).map((e) => e.id);
	}

	/** Polls GET /rest/executions/:id until the execution has finished; returns it unflattened. */
	async waitForExecution(executionId, { timeoutMs = 60000 } = {}) {
		const deadline = Date.now() + timeoutMs;
		let delay = 10;
		for (;;) {
			const ex = await this.getExecution(executionId).catch((e) => {
				// 503 "Database is not ready!": a busy n8n's database monitor missed a ping for a moment; ask again
				if (e.status === 404 || e.status === 503 || /not found/i.test(e.message)) return undefined;
				throw e;
			});
			if (ex && !['new', 'running', 'waiting'].includes(ex.status) && ex.stoppedAt) return ex;
			if (Date.now() > deadline) {
				throw new Error(`execution ${executionId} not finished after ${timeoutMs} ms (status ${ex && ex.status})`);
			}
			await sleep(delay);
			delay = Math.min(delay + 10, 100);
		}
	}

	async getExecution(executionId) {
		const ex = await this.request('GET', `/rest/executions/${executionId}`);
		if (ex && typeof ex.data === 'string') ex.data = this.unflatten(ex.data);
		return ex;
	}

	/** Executions of a workflow, newest first (summary rows; use getExecution for data). */
	async listExecutions(workflowId, { limit = 50 } = {}) {
		const q = new URLSearchParams({ filter: JSON.stringify({ workflowId: String(workflowId) }), limit: String(limit) });
		const res = await this.request('GET', `/rest/executions?${q}`);
		return (res && res.results) || [];
	}

	unflatten(s) {
		if (!this._flatted) {
			this._flatted = require(
				require.resolve('flatted', { paths: [path.join(this.install.appDir, 'node_modules', 'n8n')] }),
			);
		}
		return this._flatted.parse(s);
	}

	// ---- activation / polling triggers ------------------------------------------------------
	/**
	 * Activates a workflow (n8n runs one poll of each polling trigger right away; an error
	 * there fails activation → this throws). Waits until the executions that poll produced
	 * are finished, and returns them as RunResults (empty when poll() returned null). `min`: the
	 * number of executions the caller expects at least (waited for, up to timeoutMs).
	 */
	async activateWorkflow(id, { settleMs = 300, timeoutMs = 30000, min = 0 } = {}) {
		const before = new Set((await this.listExecutions(id)).map((e) => e.id));
		const wf = await this.getWorkflow(id);
		await this.request('POST', `/rest/workflows/${id}/activate`, { versionId: wf.versionId });
		this.activeWorkflows.add(String(id));
		await this.#waitForPublication(id, { timeoutMs });
		// n8n starts the execution of what the first poll emitted without awaiting it: a caller that expects
		// one (min: 1) waits for it instead of trusting that it shows up within settleMs on a busy machine
		return await this.#collectNewExecutions(id, before, { settleMs, timeoutMs, min });
	}

	/**
	 * n8n 2.x publishes asynchronously (workflow publication outbox): POST /activate answers
	 * at once and the triggers (with the first poll) are added afterwards. Waits for
	 * GET /rest/workflows/:id/publication-status to settle; 'failed'/'partial' → throws the
	 * trigger's errorMessage. No-op on n8n 1.x (the endpoint does not exist there).
	 */
	async #waitForPublication(id, { timeoutMs = 30000 } = {}) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const r = await this.request('GET', `/rest/workflows/${id}/publication-status`, undefined, { raw: true });
			if (r.status === 404) return;
			const st = r.json && r.json.data;
			if (!st) return;
			if (st.status === 'failed' || st.status === 'partial') {
				const msgs = (st.triggers || []).filter((t) => t.status === 'failed').map((t) => t.errorMessage);
				const err = new Error(`activation of workflow ${id} failed: ${msgs.join('; ')}`);
				err.publication = st;
				throw err;
			}
			if (st.status !== 'in_progress') return;
			if (Date.now() > deadline)
				throw new Error(`publication of workflow ${id} still in progress after ${timeoutMs} ms`);
			await sleep(50);
		}
	}

	/**
	 * The bytes of a binary property of an output item: base64 `data` (n8n 1.x default
	 * in-memory mode) or, when `id` is set (n8n 2.x default filesystem mode, where `data` is
	 * just "filesystem-v2"), fetched from GET /rest/binary-data.
	 */
	async binaryBuffer(bin) {
		if (!bin.id) return Buffer.from(bin.data, 'base64');
		const r = await this.request(
			'GET',
			`/rest/binary-data?id=${encodeURIComponent(bin.id)}&action=download`,
			undefined,
			{ bytes: true },
		);
		if (r.status !== 200) throw new Error(`binary ${bin.id}: HTTP ${r.status}`);
		return r.buffer;
	}

	async deactivateWorkflow(id) {
		await this.request('POST', `/rest/workflows/${id}/deactivate`);
		this.activeWorkflows.delete(String(id));
	}

	/**
	 * Forces one more poll of an active (or inactive) workflow's polling triggers by
	 * deactivating and re-activating it. Static data persisted by the previous polls is
	 * reloaded from the DB, so this proves state persistence across polls.
	 */
	async pollNow(id, opts) {
		const wf = await this.getWorkflow(id);
		if (wf.active || wf.activeVersionId) await this.deactivateWorkflow(id);
		return await this.activateWorkflow(id, opts);
	}

	async #collectNewExecutions(id, before, { settleMs, timeoutMs, min = 0 }) {
		const deadline = Date.now() + timeoutMs;
		let lastCount = -1;
		let stableSince = Date.now();
		for (;;) {
			const fresh = (await this.listExecutions(id)).filter((e) => !before.has(e.id));
			const running = fresh.some((e) => ['new', 'running'].includes(e.status) || !e.stoppedAt);
			if (fresh.length !== lastCount || running) {
				lastCount = fresh.length;
				stableSince = Date.now();
			} else if (fresh.length >= min && Date.now() - stableSince >= settleMs) {
				const out = [];
				for (const e of fresh.sort((a, b) => Number(a.id) - Number(b.id))) {
					out.push(new RunResult(await this.getExecution(e.id)));
				}
				return out;
			}
			if (Date.now() > deadline) throw new Error(`executions of workflow ${id} still running after ${timeoutMs} ms`);
			await sleep(50);
		}
	}

	// ---- lifecycle ------------------------------------------------------------------------
	/** Last lines of n8n's console output (for failure messages). */
	tail(n = 60) {
		return this.logs.slice(-n).join('\n');
	}

	async stop() {
		if (this.stopped) return;
		this.stopped = true;
		const child = this.child;
		if (child.exitCode === null && child.signalCode === null) {
			const exited = new Promise((r) => child.once('exit', r));
			child.kill('SIGTERM');
			const t = setTimeout(() => child.kill('SIGKILL'), 15000);
			await exited;
			clearTimeout(t);
		}
		if (!this.keepUserFolder) await fsp.rm(this.userFolder, { recursive: true, force: true }).catch(() => {});
	}
}

function pickStartNode(wf) {
	const targets = new Set();
	for (const outputs of Object.values(wf.connections || {})) {
		for (const conns of Object.values(outputs)) {
			for (const list of conns || []) for (const c of list || []) targets.add(c.node);
		}
	}
	// Sticky notes are never connected, so they would look like roots.
	const roots = (wf.nodes || []).filter(
		(n) => !n.disabled && !targets.has(n.name) && n.type !== 'n8n-nodes-base.stickyNote',
	);
	const trig = roots.find((n) => /trigger/i.test(n.type) || /trigger/i.test(n.name));
	const pick = trig || roots[0];
	if (!pick) throw new Error('workflow has no start node');
	return pick.name;
}

/**
 * Starts one real n8n server with a community package loaded.
 *   packageDir   directory with package.json ("n8n" section) — default: the repo root
 *   port         default: a free loopback port
 *   userFolder   default: a fresh temp dir (deleted by stop() unless keepUserFolder)
 *   owner        { email, firstName, lastName, password } — default DEFAULT_OWNER
 *   env          extra environment for n8n
 *   timeoutMs    start-up timeout (default 120 s)
 *   echo         pipe n8n's output to stderr (default: env N8N_E2E_ECHO=1)
 *   logFile      also append n8n's output to this file
 *   requireNodes fail when n8n loaded no node of the package (default true)
 *   keepUserFolder  do not delete the user folder on stop()
 *   worker       start `n8n worker` (queue mode, see queue.js): no editor, no REST, no owner
 */
async function startN8n(opts = {}) {
	const t0 = Date.now();
	const install = ensureInstalled();
	const { userFolder, packageName } = await prepareUserFolder(opts);
	const port = opts.port || (await freePort());
	const logs = [];
	const echo = opts.echo !== undefined ? opts.echo : process.env.N8N_E2E_ECHO === '1';
	const logFile = opts.logFile ? fs.createWriteStream(opts.logFile, { flags: 'a' }) : undefined;
	// N8N_E2E_NODE_ARGS: extra Node flags for n8n, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" to profile it
	const nodeArgs = (process.env.N8N_E2E_NODE_ARGS || '').split(' ').filter(Boolean);
	const child = spawn(install.node, [...nodeArgs, install.bin, opts.worker ? 'worker' : 'start'], {
		cwd: userFolder,
		env: n8nEnv({ userFolder, port, brokerPort: await freePort(), extra: opts.env }),
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const onData = (buf) => {
		for (const line of buf.toString().split('\n')) {
			if (!line) continue;
			logs.push(line);
			if (logs.length > 2000) logs.shift();
			if (echo) process.stderr.write(`[n8n] ${line}\n`);
			if (logFile) logFile.write(line + '\n');
		}
	};
	child.stdout.on('data', onData);
	child.stderr.on('data', onData);
	const inst = new N8nInstance({
		child,
		port,
		userFolder,
		packageName,
		owner: opts.owner || { ...DEFAULT_OWNER },
		install,
		logs,
		keepUserFolder: !!opts.keepUserFolder,
	});
	// make sure the child dies with us
	const killer = () => {
		try {
			child.kill('SIGKILL');
		} catch {}
	};
	process.once('exit', killer);
	child.once('exit', () => process.removeListener('exit', killer));

	const timeoutMs = opts.timeoutMs || 120000;
	const deadline = Date.now() + timeoutMs;
	try {
		for (;;) {
			if (child.exitCode !== null || child.signalCode !== null) {
				throw new Error(`n8n exited (${child.exitCode ?? child.signalCode}) during start-up`);
			}
			if (logs.some((l) => l.includes(opts.worker ? 'n8n worker is now ready' : 'Editor is now accessible'))) break;
			if (Date.now() > deadline) throw new Error(`n8n not ready after ${timeoutMs} ms`);
			await sleep(100);
		}
		inst.timings.startMs = Date.now() - t0;
		if (opts.worker) return inst;
		// n8n 1.x can print the editor line while its migrations still run (HTTP 503 "Database is not ready")
		for (;;) {
			try {
				await inst.setupOwner();
				break;
			} catch (e) {
				if (e.status !== 503 || Date.now() > deadline) throw e;
				await sleep(200);
			}
		}
		const loaded = await inst.loadedNodeTypes();
		if (loaded.length === 0 && opts.requireNodes !== false) {
			throw new Error(`n8n did not load any node of ${packageName} from ${userFolder}/.n8n/nodes`);
		}
		inst.loadedNodes = loaded;
		inst.timings.readyMs = Date.now() - t0;
		return inst;
	} catch (e) {
		e.message += `\n--- n8n output (last lines) ---\n${logs.slice(-40).join('\n')}`;
		await inst.stop();
		throw e;
	}
}

/**
 * The set-up every VTU e2e file shares, as node:test hooks of the calling file. Before its tests: the
 * sandbox (a child process on a free port), one n8n with the package (or, with `queue`, a queue-mode
 * cluster: queue.js) and a default VTU credential for the sandbox's account "demo". After them: the
 * workflows still active deactivated, then n8n and the sandbox stopped. Returns the file's context,
 * filled in by the before hook:
 *   sb                 the sandbox (sandbox.js)
 *   n8n                the N8nInstance (the cluster's main with `queue`); q: the cluster
 *   cred               the default credential ({ id, name, type })
 *   credential(name, { apiToken?, makeDefault? })  one more VTU credential for the sandbox (default: the
 *                      demo token, not the default credential)
 *   secrets            tokens that must appear in no execution (the demo token; push the others)
 *   assertNoSecrets(run)  fails when one of them appears in what n8n stored about the run
 *   runNode(type, parameters, { items, extra, credentials, username })  Manual Trigger → one node named
 *                      "Node" (sandbox.js oneNode); checks for secrets; returns { run, out (the node's
 *                      output when the run succeeded), ledger (the account's ledger rows it wrote) }
 *   ready              resolves when all of the above is set up. Node 20 starts a file's top-level before hooks
 *                      together, without waiting for the one before: a file's own hook that needs n8n
 *                      awaits vtu.ready first (test/browser/editor.test.js)
 * Options: packageDir (default this repo; a function, e.g. one that packs and installs the package, is
 * awaited in the hook), credentialName (default 'VTU sandbox'), n8n (more startN8n options), queue
 * (startQueueCluster options).
 */
function useVtuN8n({ packageDir = REPO_ROOT, credentialName = 'VTU sandbox', n8n: n8nOpts = {}, queue } = {}) {
	const { before, after } = require('node:test');
	const assert = require('node:assert/strict');
	const { startSandboxProcess, oneNode, executionText } = require('./sandbox');
	const ctx = {
		sb: undefined,
		n8n: undefined,
		q: undefined,
		cred: undefined,
		secrets: [],
		credential(name, { apiToken = ctx.sb.token, makeDefault = false } = {}) {
			return ctx.n8n.createCredential({ name, data: { baseUrl: ctx.sb.baseUrl, apiToken }, makeDefault });
		},
		assertNoSecrets(run) {
			const text = executionText(run);
			for (const s of ctx.secrets) assert.ok(!text.includes(s), 'an API token appears in the execution data');
		},
		async runNode(type, parameters, opts = {}) {
			const seq = await ctx.sb.lastSeq();
			const run = await ctx.n8n.runWorkflow(
				oneNode(ctx.n8n, type, parameters, opts),
				opts.credentials ? { credentials: opts.credentials } : {},
			);
			const ledger = await ctx.sb.since(opts.username || 'demo', seq);
			ctx.assertNoSecrets(run);
			return { run, out: run.status === 'success' ? run.nodeOutput('Node') : undefined, ledger };
		},
	};
	let ready;
	ctx.ready = new Promise((resolve, reject) => (ready = { resolve, reject }));
	ctx.ready.catch(() => {}); // the hook reports a failed set-up; a file that does not wait on it is fine
	before(async () => {
		try {
			ctx.sb = await startSandboxProcess();
			ctx.secrets.push(ctx.sb.token);
			const dir = typeof packageDir === 'function' ? await packageDir() : packageDir;
			if (queue) {
				ctx.q = await require('./queue').startQueueCluster({ packageDir: dir, ...queue });
				ctx.n8n = ctx.q.main;
			} else {
				ctx.n8n = await startN8n({ packageDir: dir, ...n8nOpts });
			}
			ctx.cred = await ctx.credential(credentialName, { makeDefault: true });
			ready.resolve(ctx);
		} catch (e) {
			ready.reject(e);
			throw e;
		}
	});
	after(async () => {
		if (ctx.n8n) for (const id of ctx.n8n.activeWorkflows) await ctx.n8n.deactivateWorkflow(id).catch(() => {});
		if (ctx.q) await ctx.q.stop();
		else if (ctx.n8n) await ctx.n8n.stop();
		if (ctx.sb) await ctx.sb.stop();
	});
	return ctx;
}

module.exports = {
	startN8n,
	useVtuN8n,
	jsonOr,
	ensureInstalled,
	prepareUserFolder,
	n8nEnv,
	freePort,
	pickStartNode,
	RunResult,
	N8nInstance,
	DEFAULT_OWNER,
	REPO_ROOT,
	N8N_VERSION,
};
