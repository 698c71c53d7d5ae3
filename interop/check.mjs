// make interop: read bench's traces and results with readers this project
// did not write, and check them against bench's own figures.
//
//   apache-arrow (JavaScript)  trace.arrow, jobs.arrow, tasks.arrow of bench replay
//                              and of every cell of a bench sweep
//   hyparquet                  the same results written with --format parquet
//   DuckDB (@duckdb/node-api)  the Parquet and CSV results, globbed over runs and
//                              grouped by their policy column
//
// Usage: node check.mjs [path/to/bench]  (default ../bin/bench)
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { tableFromIPC } from 'apache-arrow'
import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects } from 'hyparquet'
import { DuckDBInstance } from '@duckdb/node-api'

const here = dirname(fileURLToPath(import.meta.url))
const bench = resolve(process.argv[2] ?? join(here, '..', 'bin', 'bench'))
const tmp = mkdtempSync(join(tmpdir(), 'sojourn-interop-'))
let failures = 0
let checks = 0

function bin(...args) {
  return execFileSync(bench, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] })
}

function check(what, ok, detail) {
  checks++
  if (!ok) failures++
  console.log(`${ok ? 'ok  ' : 'FAIL'}  ${what}${detail ? ': ' + detail : ''}`)
}

// near: equal within a relative 1e-12 (the same float64s summed in
// another order).
const near = (a, b) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(a), Math.abs(b))

const arrowTable = (path) => tableFromIPC(readFileSync(path))
const column = (table, name) => Array.from(table.getChild(name).toArray(), Number)
const mean = (xs) => xs.reduce((s, x) => s + x, 0) / xs.length
const sum = (xs) => xs.reduce((s, x) => s + x, 0)

async function parquetColumn(path, name) {
  const file = await asyncBufferFromFile(path)
  const meta = await parquetMetadataAsync(file)
  const rows = await parquetReadObjects({ file, columns: [name] })
  return { rows: Number(meta.num_rows), values: rows.map((r) => Number(r[name])), meta }
}

async function main() {
  console.log(`bench: ${bench}\nscratch: ${tmp}\n`)

  // 1. A workload: row count against bench generate's.
  const trace = join(tmp, 'trace.arrow')
  const gen = bin('generate', '--profile', 'fb2009', '--seed', '1', '--out', trace)
  const genJobs = Number(/: (\d+) jobs/.exec(gen)[1])
  const tr = arrowTable(trace)
  check('trace.arrow rows = jobs bench generate wrote', tr.numRows === genJobs, `${tr.numRows} vs ${genJobs}`)
  const maps = column(tr, 'maps')
  const lists = tr.getChild('map_durations_s')
  let listsAgree = true
  for (let i = 0; i < tr.numRows; i++) listsAgree &&= lists.get(i).length === maps[i]
  check('trace.arrow map_durations_s lists have maps entries', listsAgree)

  // 2. A replay: rows, mean sojourn and node-local share against the
  //    summary bench replay prints, and the tasks file against the jobs file.
  const out = join(tmp, 'replay')
  const printed = bin('replay', '--trace', trace, '--scheduler', 'hfsp', '--out', out)
  const field = (label) => Number(new RegExp(`^${label}\\s+([0-9.]+)`, 'm').exec(printed)[1])
  const jobs = arrowTable(join(out, 'jobs.arrow'))
  const soj = column(jobs, 'sojourn_s')
  check('jobs.arrow rows = bench replay\'s jobs', jobs.numRows === field('jobs'), `${jobs.numRows} vs ${field('jobs')}`)
  const ident = [jobs.getChild('policy').get(0), jobs.getChild('seed').get(0), jobs.getChild('workload').get(0)]
  check('jobs.arrow policy, seed and workload columns = the run\'s', ident[0] === 'hfsp' && Number(ident[1]) === 1 && ident[2] === 'trace',
    ident.join(', '))
  check('mean sojourn_s = bench replay\'s mean sojourn (0.1 s)', Math.abs(mean(soj) - field('mean sojourn')) <= 0.05 + 1e-9,
    `${mean(soj).toFixed(3)} s vs ${field('mean sojourn')} s`)
  const local = sum(column(jobs, 'node_local_maps'))
  const finished = local + sum(column(jobs, 'rack_local_maps')) + sum(column(jobs, 'off_rack_maps'))
  check('node-local share = bench replay\'s node-local maps (0.1%)', Math.abs(100 * local / finished - field('node-local maps')) <= 0.05 + 1e-9,
    `${(100 * local / finished).toFixed(2)}% vs ${field('node-local maps')}%`)
  const tasks = arrowTable(join(out, 'tasks.arrow'))
  const kind = tasks.getChild('kind'); const loc = tasks.getChild('locality'); const outcome = tasks.getChild('outcome')
  let localSegments = 0
  for (let i = 0; i < tasks.numRows; i++) {
    if (kind.get(i) === 'map' && loc.get(i) === 'node-local' && outcome.get(i) === 'finished') localSegments++
  }
  check('tasks.arrow finished node-local map segments = Σ jobs.node_local_maps', localSegments === local, `${localSegments} vs ${local}`)

  // 3. The same replay as Parquet, read by hyparquet: the same values.
  const pq = join(tmp, 'replay-parquet')
  bin('replay', '--trace', trace, '--scheduler', 'hfsp', '--format', 'parquet', '--out', pq)
  const pj = await parquetColumn(join(pq, 'jobs.parquet'), 'sojourn_s')
  check('jobs.parquet rows = jobs.arrow rows', pj.rows === jobs.numRows, `${pj.rows}`)
  check('jobs.parquet sojourn_s = jobs.arrow sojourn_s, value by value', pj.values.every((v, i) => v === soj[i]))
  const kv = Object.fromEntries((pj.meta.key_value_metadata ?? []).map((e) => [e.key, e.value]))
  check('jobs.parquet keeps the result metadata', kv['sojourn.kind'] === 'jobs' && kv.scheduler === 'hfsp', `kind ${kv['sojourn.kind']}, scheduler ${kv.scheduler}`)
  const pt = await parquetColumn(join(pq, 'tasks.parquet'), 'locality')
  check('tasks.parquet rows and dictionary column = tasks.arrow\'s', pt.rows === tasks.numRows && pt.values.length === tasks.numRows &&
    (await parquetReadObjects({ file: await asyncBufferFromFile(join(pq, 'tasks.parquet')), columns: ['locality'] })).every((r, i) => r.locality === loc.get(i)))

  // 4. A sweep in both formats: every cell's rows and mean sojourn against
  //    summary.json, bench's own full-precision figures.
  const spec = join(here, 'sweep.json')
  for (const format of ['arrow', 'parquet']) {
    const dir = join(tmp, `sweep-${format}`)
    bin('sweep', '--out', dir, '--format', format, spec)
    const summary = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8'))
    let rows = true; let means = true
    for (const cell of summary.cells) {
      let n; let values
      if (format === 'arrow') {
        const t = arrowTable(join(dir, cell.dir, 'jobs.arrow'))
        n = t.numRows; values = column(t, 'sojourn_s')
      } else {
        ({ rows: n, values } = await parquetColumn(join(dir, cell.dir, 'jobs.parquet'), 'sojourn_s'))
      }
      rows &&= n === cell.jobs
      means &&= near(mean(values), cell.mean_sojourn_s)
    }
    check(`sweep (${format}): rows of ${summary.cells.length} cells = summary.json's jobs`, rows)
    check(`sweep (${format}): mean sojourn of every cell = summary.json's`, means)
  }

  // 5. DuckDB, as a notebook would use it: the Parquet results of a
  //    replay per policy globbed into one table and grouped by its policy
  //    column against each bench replay's printed mean sojourn; the
  //    sweep's cells against summary.json; a CSV replay against its Arrow.
  const duck = await (await DuckDBInstance.create(':memory:')).connect()
  const query = async (sql) => (await duck.runAndReadAll(sql)).getRowObjects()
  const printedMean = {}
  for (const policy of ['fifo', 'fair', 'hfsp']) {
    const p = bin('replay', '--trace', trace, '--scheduler', policy, '--format', 'parquet', '--out', join(tmp, 'duck', policy))
    printedMean[policy] = Number(/^mean sojourn\s+([0-9.]+)/m.exec(p)[1])
  }
  const perPolicy = await query(`SELECT policy, count(*) AS n, avg(sojourn_s) AS m FROM read_parquet('${join(tmp, 'duck', '*', 'jobs.parquet')}') GROUP BY policy ORDER BY policy`)
  check('DuckDB: mean sojourn per policy over globbed jobs.parquet = bench replay\'s (0.1 s)',
    perPolicy.length === 3 && perPolicy.every((r) => Math.abs(r.m - printedMean[r.policy]) <= 0.05 + 1e-9 && Number(r.n) === genJobs),
    perPolicy.map((r) => `${r.policy} ${r.m.toFixed(2)} s vs ${printedMean[r.policy]} s`).join(', '))
  const sweepDir = join(tmp, 'sweep-parquet')
  const summary = JSON.parse(readFileSync(join(sweepDir, 'summary.json'), 'utf8'))
  const want = {}
  for (const cell of summary.cells) {
    const k = `${cell.policy}/${cell.workload}/${cell.seed}`
    want[k] ??= { n: 0, s: 0 }
    want[k].n += cell.jobs; want[k].s += cell.jobs * cell.mean_sojourn_s
  }
  const groups = await query(`SELECT policy, workload, seed, count(*) AS n, avg(sojourn_s) AS m FROM read_parquet('${join(sweepDir, 'cells', '*', 'jobs.parquet')}') GROUP BY ALL`)
  check(`DuckDB: the sweep's jobs.parquet grouped by policy, workload and seed = summary.json's ${Object.keys(want).length} groups`,
    groups.length === Object.keys(want).length && groups.every((g) => {
      const w = want[`${g.policy}/${g.workload}/${g.seed}`]
      return w && Number(g.n) === w.n && near(g.m, w.s / w.n)
    }), `${groups.length} groups`)
  const csvDir = join(tmp, 'replay-csv')
  bin('replay', '--trace', trace, '--scheduler', 'hfsp', '--format', 'csv', '--out', csvDir)
  const [c] = await query(`SELECT count(*) AS n, avg(sojourn_s) AS m, count(reduce_sojourn_s) AS r, any_value(policy) AS p FROM read_csv('${join(csvDir, 'jobs.csv')}')`)
  const reduceRows = column(jobs, 'reduce_sojourn_s').filter((_, i) => jobs.getChild('reduce_sojourn_s').isValid(i)).length
  check('DuckDB: jobs.csv rows, mean sojourn, nulls and policy = jobs.arrow\'s', Number(c.n) === jobs.numRows && near(c.m, mean(soj)) &&
    Number(c.r) === reduceRows && c.p === 'hfsp', `${c.n} rows, ${c.m.toFixed(3)} s, ${c.r} non-null reduce sojourns, ${c.p}`)

  console.log(`\n${checks - failures} of ${checks} checks passed`)
}

try {
  await main()
} catch (e) {
  failures++
  console.error(`FAIL  ${e.stack ?? e}`)
} finally {
  rmSync(tmp, { recursive: true, force: true })
}
process.exit(failures > 0 ? 1 : 0)
