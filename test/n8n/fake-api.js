'use strict';
/**
 * Tiny loopback stand-in for the merchant API, used by the harness proof test
 * (harness.test.js). Real e2e tests use the sandbox (sandbox/) instead.
 *
 *   const api = await startFakeApi({ token: 'good' });
 *   api.baseUrl      // http://127.0.0.1:<port>/api
 *   api.requests     // [{ method, url, headers, body }]
 *   api.transactions // mutable [{ ref, status }] served by GET /api/transactions/
 *   await api.close();
 */
const http = require('node:http');

async function startFakeApi({ token = 'good', balance = '1500.00' } = {}) {
	const api = { requests: [], transactions: [], balance };
	const server = http.createServer((req, res) => {
		let raw = '';
		req.on('data', (c) => (raw += c));
		req.on('end', () => {
			let body;
			try {
				body = raw ? JSON.parse(raw) : undefined;
			} catch {
				body = raw;
			}
			api.requests.push({ method: req.method, url: req.url, headers: req.headers, body });
			const send = (status, obj) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(obj));
			};
			if (req.headers.authorization !== `Token ${token}`) return send(401, { detail: 'Invalid token.' });
			if (req.method === 'GET' && req.url.startsWith('/api/user/')) {
				return send(200, { user: { username: 'demo', wallet_balance: api.balance } });
			}
			if (req.method === 'POST' && req.url.startsWith('/api/topup/')) {
				if (!body || !/^0\d{10}$/.test(String(body.phone || ''))) return send(400, { error: ['invalid phone'] });
				return send(201, {
					id: api.requests.length,
					Status: 'successful',
					phone: body.phone,
					amount: String(body.amount),
				});
			}
			if (req.method === 'GET' && req.url.startsWith('/api/transactions/')) {
				return send(200, { count: api.transactions.length, results: api.transactions });
			}
			return send(404, { detail: 'Not found.' });
		});
	});
	await new Promise((r) => server.listen(0, '127.0.0.1', r));
	api.baseUrl = `http://127.0.0.1:${server.address().port}/api`;
	api.close = () => new Promise((r) => server.close(() => r()));
	return api;
}

module.exports = { startFakeApi };
