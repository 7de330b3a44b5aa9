'use strict';
// The nodes as a person meets them in the demo's n8n editor: headless Chromium (OS package) driven by
// playwright-core. Every VTU node is found in the nodes panel with its icon loaded, and VTU Data's
// Network and Plan dropdowns list the sandbox's catalogue. Waits on selectors and responses only.
// Run: npm run test:browser (test/browser/run.sh). On failure a screenshot is left in $TMPDIR.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { startN8n, REPO_ROOT } = require('../n8n/harness');
const { startSandboxProcess, oneNode } = require('../n8n/sandbox');

// The display names the panel must show, with the icon file each one uses (the panel drops a trigger's
// "Trigger": VTU Transaction Trigger is found by its description).
const NODES = {
  'VTU Wallet': 'vtuWallet',
  'VTU Data': 'vtuData',
  'VTU Airtime': 'vtuAirtime',
  'VTU Cable TV': 'vtuCableTv',
  'VTU Electricity': 'vtuElectricity',
  'VTU Exam Pin': 'vtuExamPin',
  'VTU Recharge Card': 'vtuRechargeCard',
  'VTU Bulk SMS': 'vtuBulkSms',
  'VTU Identity': 'vtuIdentity',
  'VTU Transaction': 'vtuTransaction',
  'VTU Transaction Trigger': 'vtuTransactionTrigger',
};
// Flags for Chromium on a closed network as root (see the machine notes): no background traffic, no sandbox.
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

let sb;
let n8n;
let browser;
let page;
let base;

before(async () => {
  sb = await startSandboxProcess();
  // A give-up limit for n8n's start-up, generous for a saturated machine (not a measurement).
  n8n = await startN8n({ packageDir: REPO_ROOT, timeoutMs: 600_000 });
  await n8n.createCredential({ name: 'VTU Sandbox', data: { baseUrl: sb.baseUrl, apiToken: sb.token } });
  base = `http://127.0.0.1:${n8n.port}`;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(120_000);
  // Sign in as a person does, with the owner the harness set up.
  await withScreenshot('signin', async () => {
    await page.goto(`${base}/signin`);
    await page.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]').first().fill(n8n.owner.email);
    await page.locator('input[type="password"]').first().fill(n8n.owner.password);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
  });
});

after(async () => {
  if (browser) await browser.close();
  if (n8n) await n8n.stop();
  if (sb) await sb.stop();
});

/** Run `fn`; on failure keep a screenshot of the page for whoever reads the log. */
async function withScreenshot(name, fn) {
  try {
    await fn();
  } catch (e) {
    const file = path.join(os.tmpdir(), `vtu-browser-${name}.png`);
    await page.screenshot({ path: file, fullPage: true }).catch(() => {});
    e.message += `\n(screenshot: ${file})`;
    throw e;
  }
}

async function openWorkflow(wf) {
  const stored = await n8n.importWorkflow(wf);
  await page.goto(`${base}/workflow/${stored.id}`);
  await page.locator('[data-test-id="canvas-node"]').first().waitFor();
}

test('the nodes panel lists every VTU node with its own icon loaded', async () => {
  await withScreenshot('panel', async () => {
    await openWorkflow({ ...oneNode(n8n, 'vtuWallet', { operation: 'getBalance' }), name: 'Browser: panel' });
    const icons = new Map();
    page.on('response', (r) => {
      const m = /\/(vtu\w+?)(\.dark)?\.svg(\?|$)/.exec(r.url());
      if (m) icons.set(m[1], r.status());
    });
    await page.locator('[data-test-id="node-creator-plus-button"]').first().click(); // the canvas's "+": the nodes panel
    const search = page.locator('[data-test-id="node-creator"] input').first();
    await search.waitFor();
    await search.fill('VTU');
    const items = page.locator('[data-test-id="node-creator-node-item"]');
    await items.filter({ hasText: 'VTU Data' }).first().waitFor();
    for (const [label, icon] of Object.entries(NODES)) {
      const item = label.endsWith(' Trigger')
        ? items.filter({ hasText: /Starts the workflow when a VTU purchase/ }).first()
        : items.filter({ has: page.getByText(label, { exact: true }) }).filter({ hasNotText: /Starts the workflow/ }).first();
      await item.waitFor();
      const img = item.locator('img').first();
      await img.waitFor();
      assert.match(await img.getAttribute('src'), new RegExp(`/${icon}(\\.dark)?\\.svg`), `${label}: icon file`);
      // Loaded and decoded: the browser knows its size.
      await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle());
      assert.equal(icons.get(icon), 200, `${label}: icon request`);
    }
  });
});

test('VTU Data: the Network and Plan dropdowns list the sandbox catalogue', async () => {
  await withScreenshot('dropdowns', async () => {
    await openWorkflow({ ...oneNode(n8n, 'vtuData', { operation: 'buy' }), name: 'Browser: data' });
    await page.locator('[data-test-id="canvas-node"]').filter({ hasText: 'Node' }).first().dblclick();
    const ndv = page.locator('[data-test-id="ndv"]').first();
    await ndv.waitFor();

    const network = ndv.locator('[data-test-id="parameter-input-network"] input').first();
    await network.click();
    const options = page.locator('.el-select-dropdown__item:visible, [role="option"]:visible');
    await options.filter({ hasText: /^MTN$/ }).first().waitFor();
    const names = (await options.allInnerTexts()).map((t) => t.trim());
    for (const net of ['MTN', 'GLO', 'AIRTEL', '9MOBILE']) assert.ok(names.includes(net), `Network lists ${net}: ${JSON.stringify(names)}`);
    await options.filter({ hasText: /^MTN$/ }).first().click();

    const plan = ndv.locator('[data-test-id="parameter-input-plan"] input').first();
    await plan.click();
    await options.filter({ hasText: '1GB SME · ₦250.00 · 30 days' }).first().waitFor();
    const plans = (await options.allInnerTexts()).map((t) => t.trim());
    assert.ok(plans.length >= 3, `several MTN plans: ${JSON.stringify(plans)}`);
    for (const p of plans) assert.match(p, /· ₦\d{1,3}(,\d{3})*\.\d\d/, `plan label with its price: ${p}`);
  });
});
