// make browser-check: open the report (index.html and every run page) in
// headless Chromium from the file system, screenshot it, and fail on a
// console error, a failed or network request, a missing image, a page
// wider than its window or a figure wider than its box. The index's first
// screen, at both widths, must show the answer (a table of each policy
// against FAIR with its interval) and the claims tally; a run page's
// chart must scroll inside its box rather than widen the page.
//
// Usage: node browser-check.mjs REPORTS_DIR SCREENSHOT_DIR
// Chromium: $CHROMIUM, default /usr/bin/chromium (Debian's package).
import { mkdirSync, readdirSync, statSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { chromium } from 'playwright-core'

const reports = resolve(process.argv[2] ?? 'out/reports')
const shots = resolve(process.argv[3] ?? 'out/browser')
mkdirSync(shots, { recursive: true })

const walk = (dir) => readdirSync(dir).flatMap((n) => {
  const p = join(dir, n)
  return statSync(p).isDirectory() ? walk(p) : p.endsWith('.html') ? [p] : []
})
const runPages = walk(join(reports, 'runs')).sort()
const pages = [join(reports, 'index.html'), ...runPages]

// Screenshots: the index and the first run page of each experiment, at a
// desktop width and a phone's. Every page is checked at the desktop
// width, these at the phone's too (the run pages share one template).
const firstOfSection = new Set()
const seen = new Set()
for (const p of runPages) {
  const section = relative(join(reports, 'runs'), p).split('/')[0]
  if (!seen.has(section)) { seen.add(section); firstOfSection.add(p) }
}
const viewports = [{ name: 'desktop', width: 1280, height: 900 }, { name: 'narrow', width: 390, height: 844 }]

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
})
let failures = 0
const fail = (page, what) => { failures++; console.log(`FAIL  ${relative(reports, page)}: ${what}`) }

for (const vp of viewports) {
  const context = await browser.newContext({ viewport: { width: vp.width, height: vp.height } })
  const tab = await context.newPage()
  let current = ''
  tab.on('console', (m) => { if (m.type() === 'error') fail(current, `[${vp.name}] console error: ${m.text()}`) })
  tab.on('pageerror', (e) => fail(current, `[${vp.name}] script error: ${e.message}`))
  tab.on('requestfailed', (r) => fail(current, `[${vp.name}] request failed: ${r.url()} (${r.failure()?.errorText})`))
  await context.route(/^(?!file:)/, (route) => { fail(current, `[${vp.name}] network request: ${route.request().url()}`); route.abort() })
  for (const page of vp.name === 'desktop' ? pages : pages.filter((p) => p === pages[0] || firstOfSection.has(p))) {
    current = page
    await tab.goto(pathToFileURL(page).href, { waitUntil: 'load' })
    const problems = await tab.evaluate(() => {
      const out = []
      const doc = document.documentElement
      if (doc.scrollWidth > doc.clientWidth + 1) out.push(`page is ${doc.scrollWidth} px wide in a ${doc.clientWidth} px window`)
      for (const img of document.images) {
        if (!img.complete || img.naturalWidth === 0) out.push(`image ${img.getAttribute('src')} did not load`)
      }
      for (const el of document.querySelectorAll('figure img, figure svg')) {
        const box = el.closest('figure').getBoundingClientRect()
        const r = el.getBoundingClientRect()
        const scroller = el.closest('div.scroll')
        if (!scroller && r.right > box.right + 1) out.push(`figure ${el.getAttribute('src') ?? el.id} overflows its box by ${Math.round(r.right - box.right)} px`)
      }
      for (const t of document.querySelectorAll('table')) {
        if (!t.closest('div.scroll')) out.push(`a table (${t.id || t.className}) is not in a scrolling box`)
      }
      return out
    })
    for (const p of problems) fail(page, `[${vp.name}] ${p}`)
    if (page === pages[0]) {
      // The first screen answers: the answer table's first row and the
      // claims tally lie within the window's height.
      const first = await tab.evaluate((h) => {
        const out = []
        const row = document.querySelector('table.answer tbody tr')
        if (!row) out.push('no answer table')
        else if (row.getBoundingClientRect().bottom > h) out.push(`the answer's first row ends at ${Math.round(row.getBoundingClientRect().bottom)} px, below the first screen (${h} px)`)
        else if (!/\[.*%.*\]/.test(row.textContent)) out.push(`the answer's first row has no interval: ${row.textContent}`)
        const tally = document.querySelector('#tally')
        if (!tally) out.push('no claims tally')
        return out
      }, vp.height)
      for (const p of first) fail(page, `[${vp.name}] first screen: ${p}`)
    } else {
      // A run page's charts fit the window or scroll inside their box.
      const wide = await tab.evaluate(() => [...document.querySelectorAll('svg, canvas, img')].filter((el) => {
        const r = el.getBoundingClientRect()
        if (r.right <= document.documentElement.clientWidth + 1) return false
        for (let a = el.parentElement; a; a = a.parentElement) {
          const o = getComputedStyle(a).overflowX
          if ((o === 'auto' || o === 'scroll') && a.getBoundingClientRect().right <= document.documentElement.clientWidth + 1) return false
        }
        return true
      }).length)
      if (wide > 0) fail(page, `[${vp.name}] ${wide} chart(s) wider than the window and not in a scrolling box`)
    }
    if (page === pages[0] || firstOfSection.has(page)) {
      const name = relative(reports, page).replaceAll('/', '--').replace(/\.html$/, '')
      await tab.screenshot({ path: join(shots, `${name}.${vp.name}.png`), fullPage: true })
    }
  }
  // The jobs table of a run page sorts by a column when its heading is clicked.
  if (vp.name === 'desktop' && runPages.length > 0) {
    current = runPages[0]
    await tab.goto(pathToFileURL(current).href)
    const col = 7 // sojourn (s)
    for (const order of ['ascending', 'descending']) {
      await tab.click(`#jobs th:nth-child(${col})`)
      const values = await tab.$$eval(`#jobs tbody td:nth-child(${col})`, (tds) => tds.map((td) => parseFloat(td.textContent)))
      const sorted = values.every((v, i) => i === 0 || (order === 'ascending' ? values[i - 1] <= v : values[i - 1] >= v))
      if (!sorted) fail(current, `clicking the sojourn heading did not sort the table ${order}`)
    }
  }
  await context.close()
}
await browser.close()
console.log(`${pages.length} pages checked at ${viewports[0].width} px, ${1 + firstOfSection.size} of them at ${viewports[1].width} px too; ` +
  `screenshots of ${1 + firstOfSection.size} in ${relative(process.cwd(), shots) || '.'}; ${failures} problem(s)`)
process.exit(failures > 0 ? 1 : 0)
