import { startApp, launch } from './test/client/browser.ts';
const app = await startApp();
const browser = await launch();
const out: string[] = [];
for (const [w, h] of [[1440, 900], [1280, 720], [1024, 768], [820, 1180], [844, 390], [390, 844], [360, 640]]) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h } });
  const page = await ctx.newPage();
  await page.goto(`${app.url}/play/turtle/measure`);
  await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
  const m = await page.evaluate(async () => {
    for (let i = 0; i < 3; i++) await new Promise((d) => requestAnimationFrame(d));
    const b = document.getElementById('board')!.getBoundingClientRect();
    return { tile: document.querySelector('#board .tile')!.getBoundingClientRect().width, top: b.top, bw: b.width, sh: document.documentElement.scrollHeight };
  });
  out.push(`${w}x${h}: tile ${m.tile.toFixed(1)} px, board ${(100 * m.bw / w).toFixed(0)}% wide, top ${m.top.toFixed(0)} px, page ${m.sh} px tall`);
  if (process.argv[2]) await page.screenshot({ path: `/tmp/shots/${process.argv[2]}-${w}x${h}.png` });
  await ctx.close();
}
console.log(out.join('\n'));
await browser.close(); await app.close();
