'use strict';
// The nodes as a person meets them in the demo's n8n editor: headless Chromium (OS package) driven by
// playwright-core. Every VTU node is found in the nodes panel with its icon loaded, and VTU Data's
// Network and Plan dropdowns list the sandbox's catalogue. Waits on selectors and responses only.
// Run: npm run test:browser (test/browser/run.sh). On failure a screenshot is left in $TMPDIR.
const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { chromium } = require('playwright-core');
const { useVtuN8n } = require('../n8n/harness');
const { oneNode } = require('../n8n/sandbox');

// The display names the panel lists, with the icon file each one uses. The panel folds a trigger into the
// node of the same name: VTU Transaction Trigger is not a row of its own but the "Triggers" actions of the
// VTU Transaction row (which then shows the trigger's description).
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
};
const TRIGGER_ICON = 'vtuTransactionTrigger';
const TRIGGER_DESCRIPTION = /Starts the workflow when a VTU purchase/;
// Flags for Chromium on a closed network as root (see the machine notes): no background traffic, no sandbox.
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// A give-up limit for n8n's start-up, generous for a saturated machine (not a measurement).
const vtu = useVtuN8n({ credentialName: 'VTU Sandbox', n8n: { timeoutMs: 600_000 } });
let browser;
let page;
let base;

before(async () => {
  await vtu.ready;
  base = `http://127.0.0.1:${vtu.n8n.port}`;
  browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  page.setDefaultTimeout(120_000);
  // Sign in as a person does, with the owner the harness set up.
  await withScreenshot('signin', async () => {
    await page.goto(`${base}/signin`);
    await page.locator('input[type="email"], input[name="emailOrLdapLoginId"], input[name="email"]').first().fill(vtu.n8n.owner.email);
    await page.locator('input[type="password"]').first().fill(vtu.n8n.owner.password);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'));
  });
});

after(async () => {
  if (browser) await browser.close();
});

/** Run `fn`; on failure keep a screenshot and the HTML of the page for whoever reads the log. */
async function withScreenshot(name, fn) {
  try {
    await fn();
  } catch (e) {
    const file = path.join(os.tmpdir(), `vtu-browser-${name}`);
    await page.screenshot({ path: `${file}.png`, fullPage: true }).catch(() => {});
    await page.content().then((html) => fs.writeFileSync(`${file}.html`, html)).catch(() => {});
    e.message += `\n(screenshot and HTML: ${file}.png, ${file}.html)`;
    throw e;
  }
}

async function openWorkflow(wf) {
  const stored = await vtu.n8n.importWorkflow(wf);
  await page.goto(`${base}/workflow/${stored.id}`);
  await page.locator('[data-test-id="canvas-node"]').first().waitFor();
}

test('the nodes panel lists every VTU node with its own icon loaded', async () => {
  await withScreenshot('panel', async () => {
    // Listen before the page loads: an icon the canvas already fetched is not requested again.
    const icons = new Map();
    page.on('response', (r) => {
      const m = /\/(vtu\w+?)(\.dark)?\.svg(\?|$)/.exec(r.url());
      if (m) icons.set(m[1], r.status());
    });
    await openWorkflow({ ...oneNode(vtu.n8n, 'vtuWallet', { operation: 'getBalance' }), name: 'Browser: panel' });
    await page.locator('[data-test-id="node-creator-plus-button"]').first().click(); // the canvas's "+": the nodes panel
    const panel = page.locator('[data-test-id="node-creator"]');
    const search = panel.locator('input').first();
    await search.waitFor();
    await search.fill('VTU');
    // A row's test id says whether a click adds the node ("node item") or opens its actions ("action item").
    const rows = panel.locator('[data-test-id="node-creator-action-item"], [data-test-id="node-creator-node-item"]');
    const named = (label) => page.locator('[data-test-id="node-creator-item-name"]', { hasText: new RegExp(`^${label}\\s*$`, 'i') });
    /** The row's own icon is the file `icon`, fetched with HTTP 200 and decoded by the browser. */
    const assertIcon = async (row, icon, label) => {
      await row.scrollIntoViewIfNeeded();
      const img = row.locator('img').first();
      await img.waitFor();
      assert.match(await img.getAttribute('src'), new RegExp(`/${icon}(\\.dark)?\\.svg`), `${label}: icon file`);
      await page.waitForFunction((el) => el.complete && el.naturalWidth > 0, await img.elementHandle());
      assert.equal(icons.get(icon), 200, `${label}: icon request`);
    };
    for (const [label, icon] of Object.entries(NODES)) {
      const row = rows.filter({ has: named(label) }).first();
      await row.waitFor();
      await assertIcon(row, icon, label);
    }
    // The trigger: its description on the VTU Transaction row, and its own actions (with its icon) inside.
    const transaction = rows.filter({ has: named('VTU Transaction') }).first();
    assert.match(await transaction.innerText(), TRIGGER_DESCRIPTION, 'VTU Transaction row carries the trigger');
    await transaction.click();
    // Its details list the node's actions open and the "Triggers" folded: open them.
    await panel.locator('[data-test-id="node-creator-category-item"]', { hasText: /Triggers/ }).first().click();
    const onNew = panel.locator('[data-test-id="item-iterator-item"]', { hasText: /new transaction/i }).first();
    await onNew.waitFor();
    await assertIcon(onNew, TRIGGER_ICON, 'VTU Transaction Trigger');
  });
});

test('VTU Data: the Network and Plan dropdowns list the sandbox catalogue', async () => {
  await withScreenshot('dropdowns', async () => {
    await openWorkflow({ ...oneNode(vtu.n8n, 'vtuData', { operation: 'buy' }), name: 'Browser: data' });
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
    // The Network list closes before the Plan list is read (both match `options` while open).
    await options.filter({ hasText: /^MTN$/ }).first().waitFor({ state: 'hidden' });

    const plan = ndv.locator('[data-test-id="parameter-input-plan"] input').first();
    await plan.click();
    await options.filter({ hasText: '1GB SME · ₦250.00 · 30 days' }).first().waitFor();
    const plans = (await options.allInnerTexts()).map((t) => t.trim());
    assert.ok(plans.length >= 3, `several MTN plans: ${JSON.stringify(plans)}`);
    for (const p of plans) assert.match(p, /· ₦\d{1,3}(,\d{3})*\.\d\d/, `plan label with its price: ${p}`);
  });
});
