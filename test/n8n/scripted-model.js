'use strict';
/**
 * An OpenAI-compatible chat endpoint on 127.0.0.1 that answers from a script, for running the AI-agent example
 * in real n8n: no language model runs on this machine, so n8n's own OpenAI Chat Model node (its credential's
 * Base URL pointed here) talks to this instead. Everything else in such a run is real: n8n's agent, the VTU
 * nodes' tool variants, the sandbox.
 *
 *   const model = await startScriptedModel((req) => ({ tool: /wallet/i, args: {} }) or ({ text: '...' }));
 *   model.baseUrl  -> 'http://127.0.0.1:<port>/v1' (the OpenAI credential's Base URL)
 *   model.requests -> every chat request received (messages, tools), to assert what the agent sent
 *
 * The script sees { messages, tools, toolResults } (toolResults: the contents of the `tool` messages so far) and
 * returns a tool call (`tool`: a RegExp matched against the offered tool names, `args`) or a final `text`.
 * Answers plain JSON, or server-sent chunks when the request asks for `stream: true`.
 */
const http = require('node:http');

function completion(model, message, finish) {
	return {
		id: `chatcmpl-${Date.now()}`,
		object: 'chat.completion',
		created: Math.floor(Date.now() / 1000),
		model,
		choices: [{ index: 0, message, finish_reason: finish, logprobs: null }],
		usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
	};
}

function streamed(res, model, message, finish) {
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
	const base = { id: `chatcmpl-${Date.now()}`, object: 'chat.completion.chunk', created: 0, model };
	const delta = { role: 'assistant', content: message.content ?? '' };
	if (message.tool_calls) delta.tool_calls = message.tool_calls.map((c, index) => ({ index, ...c }));
	const chunk = (d, f) =>
		`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: d, finish_reason: f }] })}\n\n`;
	res.write(chunk(delta, null));
	res.write(chunk({}, finish));
	res.end('data: [DONE]\n\n');
}

/** The assistant message the script's step asks for; an error text when no offered tool matches. */
function messageFor(step, tools, n) {
	if (step.text !== undefined) return { message: { role: 'assistant', content: step.text }, finish: 'stop' };
	const names = tools.map((t) => t.function?.name ?? t.name);
	const name = names.find((x) => step.tool.test(x));
	if (!name) throw new Error(`no offered tool matches ${step.tool} (offered: ${names.join(', ')})`);
	const call = { id: `call_${n}`, type: 'function', function: { name, arguments: JSON.stringify(step.args ?? {}) } };
	return { message: { role: 'assistant', content: null, tool_calls: [call] }, finish: 'tool_calls' };
}

async function startScriptedModel(script) {
	const requests = [];
	const server = http.createServer((req, res) => {
		let raw = '';
		req.on('data', (c) => (raw += c));
		req.on('end', () => {
			if (req.method !== 'POST' || !/\/chat\/completions$/.test(req.url)) {
				res.writeHead(404, { 'content-type': 'application/json' });
				return res.end(JSON.stringify({ error: { message: `scripted model: no ${req.method} ${req.url}` } }));
			}
			try {
				const body = JSON.parse(raw);
				requests.push(body);
				const messages = body.messages ?? [];
				const toolResults = messages.filter((m) => m.role === 'tool').map((m) => String(m.content));
				const step = script({ messages, tools: body.tools ?? [], toolResults });
				const { message, finish } = messageFor(step, body.tools ?? [], requests.length);
				if (body.stream) return streamed(res, body.model, message, finish);
				res.writeHead(200, { 'content-type': 'application/json' });
				res.end(JSON.stringify(completion(body.model, message, finish)));
			} catch (e) {
				res.writeHead(400, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ error: { message: `scripted model: ${e.message}` } }));
			}
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address();
	return {
		baseUrl: `http://127.0.0.1:${port}/v1`,
		requests,
		stop: () => new Promise((resolve) => server.close(resolve)),
	};
}

module.exports = { startScriptedModel };
