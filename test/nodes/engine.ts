/**
 * Runs our nodes through the REAL n8n engine in-process (n8n-core 2.8.1 WorkflowExecute,
 * PollContext, LoadOptionsContext), the way n8n runs a node. The only stub is the
 * credentials helper, which resolves the credential like n8n's CLI does for generic auth.
 */
import './setup-env';
import { ExecutionLifecycleHooks, LoadOptionsContext, PollContext, WorkflowExecute } from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IHttpRequestOptions,
	INode,
	INodeExecutionData,
	INodePropertyOptions,
	INodeType,
	IRun,
	IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';
import { NodeHelpers, Workflow } from 'n8n-workflow';

import { Container } from '@n8n/di';
import { SSHClientsManager } from 'n8n-core/dist/execution-engine/ssh-clients-manager';

import { VtuApi } from '../../credentials/VtuApi.credentials';

const credentialType = new VtuApi();

// Every node execution context creates n8n's SSH client manager, whose cleanup interval would keep
// jest alive forever; n8n stops it on shutdown, so do the same once this test file is done.
afterAll(() => Container.get(SSHClientsManager).onShutdown());

export interface Creds {
	baseUrl: string;
	apiToken: string;
}

/** Applies the credential's `authenticate` function, as n8n's CredentialsHelper does. */
function applyAuth(creds: ICredentialDataDecryptedObject, options: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	return credentialType.authenticate(creds, options);
}

/** A source node that outputs the items in its `items` parameter (JSON string). */
class InputNode implements INodeType {
	description = {
		displayName: 'Input',
		name: 'testInput',
		group: ['input'],
		version: 1,
		description: 'test input',
		defaults: { name: 'Input' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [{ displayName: 'Items', name: 'items', type: 'string', default: '[]' }],
	} as unknown as INodeType['description'];

	async execute(this: import('n8n-workflow').IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const items = JSON.parse(this.getNodeParameter('items', 0) as string) as IDataObject[];
		return [items.map((json) => ({ json }))];
	}
}

let executionCounter = 0;

function additionalData(
	creds: Creds | undefined,
	executionId: string,
	wf: { id: string; nodes: INode[] },
): IWorkflowExecuteAdditionalData {
	const credentialsHelper = {
		getParentTypes: () => [],
		authenticate: async (c: ICredentialDataDecryptedObject, _t: string, o: IHttpRequestOptions) => applyAuth(c, o),
		preAuthentication: async () => undefined,
		getCredentials: async () => ({}),
		getDecrypted: async () => ({ ...creds }),
		updateCredentials: async () => undefined,
		updateCredentialsOauthTokenData: async () => undefined,
		getCredentialsProperties: () => credentialType.properties,
	};
	return {
		credentialsHelper,
		hooks: new ExecutionLifecycleHooks('manual', executionId, {
			id: wf.id,
			name: 'test',
			active: false,
			nodes: wf.nodes,
			connections: {},
			createdAt: new Date(),
			updatedAt: new Date(),
		} as never),
		executionId,
		currentNodeExecutionIndex: 0,
		variables: {},
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		userId: 'test-user',
	} as unknown as IWorkflowExecuteAdditionalData;
}

function nodeTypesFor(types: Record<string, INodeType>) {
	return {
		getByName: (name: string) => types[name],
		getByNameAndVersion: (name: string, version?: number) => NodeHelpers.getVersionedNodeType(types[name], version),
		getKnownTypes: () => ({}),
	};
}

function vtuNode(type: INodeType, parameters: IDataObject, extra: Partial<INode> = {}): INode {
	return {
		id: 'vtu-node',
		name: 'VTU',
		type: `n8n-nodes-vtu.${type.description.name}`,
		typeVersion: 1,
		position: [200, 0],
		parameters: parameters as INode['parameters'],
		credentials: { vtuApi: { id: '1', name: 'VTU account' } },
		...extra,
	};
}

export interface RunResult {
	/** Output items of the VTU node (first output). */
	items: INodeExecutionData[];
	/** Set when the node failed (and Continue On Fail was off). */
	error?: Error & { description?: string; httpCode?: string | null; node?: unknown };
	run: IRun;
	staticData: IDataObject;
}

export interface RunOptions {
	parameters: IDataObject;
	input?: IDataObject[];
	creds: Creds;
	continueOnFail?: boolean;
	/** Reuse an execution id (the client cache is per execution). */
	executionId?: string;
	/** Node settings, e.g. { retryOnFail: true, maxTries: 3, waitBetweenTries: 10 }. */
	settings?: Partial<INode>;
}

/** Input node → the VTU node, run by WorkflowExecute (manual mode). */
export async function runNode(type: INodeType, opts: RunOptions): Promise<RunResult> {
	const executionId = opts.executionId ?? `exec-${++executionCounter}`;
	const input: INode = {
		id: 'input',
		name: 'Input',
		type: 'test.testInput',
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(opts.input ?? [{}]) },
	};
	const node = vtuNode(type, opts.parameters, {
		...(opts.continueOnFail ? { onError: 'continueRegularOutput' } : {}),
		...opts.settings,
	});
	const nodes = [input, node];
	const workflow = new Workflow({
		id: 'wf1',
		nodes,
		connections: { Input: { main: [[{ node: 'VTU', type: 'main', index: 0 }]] } },
		nodeTypes: nodeTypesFor({ 'test.testInput': new InputNode(), [node.type]: type }) as never,
		active: false,
		staticData: {},
	});
	const run = await new WorkflowExecute(additionalData(opts.creds, executionId, { id: 'wf1', nodes }), 'manual').run({
		workflow,
		startNode: input,
	} as never);
	return resultOf(run, workflow);
}

/** A node that passes its input on once `gate` resolves (holds an execution half-way). */
function gateNode(gate: Promise<void>): INodeType {
	return {
		description: {
			displayName: 'Gate',
			name: 'testGate',
			group: ['transform'],
			version: 1,
			description: 'test gate',
			defaults: { name: 'Gate' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		} as unknown as INodeType['description'],
		async execute(this: import('n8n-workflow').IExecuteFunctions): Promise<INodeExecutionData[][]> {
			await gate;
			return [this.getInputData()];
		},
	};
}

/**
 * One execution in which the VTU node runs twice: Input → VTU, and Input → Gate → VTU, so the second run
 * happens only once `gate` resolves (other executions can run meanwhile). Both runs get the same items.
 */
export async function runNodeTwice(
	type: INodeType,
	opts: RunOptions & { gate: Promise<void> },
): Promise<{ runs: INodeExecutionData[][]; errors: unknown[]; run: IRun }> {
	const executionId = opts.executionId ?? `exec-${++executionCounter}`;
	const input: INode = {
		id: 'input',
		name: 'Input',
		type: 'test.testInput',
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(opts.input ?? [{}]) },
	};
	const gate: INode = {
		id: 'gate',
		name: 'Gate',
		type: 'test.testGate',
		typeVersion: 1,
		position: [100, 200],
		parameters: {},
	};
	const node = vtuNode(type, opts.parameters, opts.continueOnFail ? { onError: 'continueRegularOutput' } : {});
	const nodes = [input, gate, node];
	const workflow = new Workflow({
		id: 'wf5',
		nodes,
		connections: {
			Input: {
				main: [
					[
						{ node: 'VTU', type: 'main', index: 0 },
						{ node: 'Gate', type: 'main', index: 0 },
					],
				],
			},
			Gate: { main: [[{ node: 'VTU', type: 'main', index: 0 }]] },
		},
		nodeTypes: nodeTypesFor({
			'test.testInput': new InputNode(),
			'test.testGate': gateNode(opts.gate),
			[node.type]: type,
		}) as never,
		active: false,
		staticData: {},
	});
	const run = await new WorkflowExecute(additionalData(opts.creds, executionId, { id: 'wf5', nodes }), 'manual').run({
		workflow,
		startNode: input,
	} as never);
	const tasks = run.data.resultData.runData.VTU ?? [];
	return {
		runs: tasks.map((t) => (t.data?.main?.[0] ?? []) as INodeExecutionData[]),
		errors: tasks.map((t) => t.error).filter(Boolean),
		run,
	};
}

/** What the VTU node output (or the error that stopped it) in a finished run. */
function resultOf(run: IRun, workflow: Workflow): RunResult {
	const taskData = run.data.resultData.runData.VTU?.[0];
	const items = (taskData?.data?.main?.[0] ?? []) as INodeExecutionData[];
	const error = (taskData?.error ?? run.data.resultData.error) as RunResult['error'];
	return { items, error, run, staticData: workflow.staticData as IDataObject };
}

/** A workflow of the VTU node alone (a trigger, or a node whose load-options method is called). */
function loneNodeWorkflow(id: string, node: INode, type: INodeType, active: boolean): Workflow {
	return new Workflow({
		id,
		nodes: [node],
		connections: {},
		nodeTypes: nodeTypesFor({ [node.type]: type }) as never,
		active,
		staticData: {},
	});
}

/** The trigger as start node of a manual run (what "Test step" does). */
export async function runTriggerManually(type: INodeType, opts: RunOptions): Promise<RunResult> {
	const executionId = opts.executionId ?? `exec-${++executionCounter}`;
	const node = vtuNode(type, opts.parameters);
	const workflow = loneNodeWorkflow('wf2', node, type, false);
	const run = await new WorkflowExecute(
		additionalData(opts.creds, executionId, { id: 'wf2', nodes: [node] }),
		'manual',
	).run({
		workflow,
		startNode: node,
	} as never);
	return resultOf(run, workflow);
}

/** A long-lived active trigger: each poll() gets a real PollContext in 'trigger' mode, static data persists. */
export function activeTrigger(type: INodeType, parameters: IDataObject, creds: Creds) {
	const node = vtuNode(type, parameters);
	const workflow = loneNodeWorkflow('wf3', node, type, true);
	let n = 0;
	return {
		workflow,
		async poll(): Promise<INodeExecutionData[][] | null> {
			const ctx = new PollContext(
				workflow,
				node,
				additionalData(creds, `poll-${++n}`, { id: 'wf3', nodes: [node] }),
				'trigger',
				'activate',
			);
			return await type.poll!.call(ctx);
		},
		get staticData(): IDataObject {
			return workflow.staticData as IDataObject;
		},
	};
}

/** A node's load-options method as the editor calls it; no `creds` = no credential selected yet. */
export async function loadOptions(
	type: INodeType,
	method: string,
	parameters: IDataObject,
	creds: Creds | undefined,
): Promise<INodePropertyOptions[]> {
	const node = vtuNode(type, parameters, creds ? {} : { credentials: undefined });
	const workflow = loneNodeWorkflow('wf4', node, type, false);
	const data = additionalData(creds, `lo-${++executionCounter}`, { id: 'wf4', nodes: [node] });
	data.currentNodeParameters = parameters as never;
	const ctx = new LoadOptionsContext(workflow, node, data, 'parameters.x');
	const fn = type.methods!.loadOptions![method];
	return await fn.call(ctx);
}
