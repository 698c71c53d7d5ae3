// Package reports draws the report of the paper's experiments: each
// experiment hands over a Section (figures as plain data, tables with
// formatted cells, and the paper's claims set against our numbers), and
// Render turns a list of them into a directory a browser opens from the
// file system: figures/*.png and *.svg drawn with gonum.org/v1/plot,
// index.html with every figure, table and claim, claims.md and tables.md
// for pasting into Markdown, and with WriteRunPage a page per replay
// (runs/<experiment>/<run>.html: the slots each job held over time, the
// per-job table). Figures are validated before
// drawing (errors name figure, panel and series), colours follow labels
// (FIFO, FAIR and HFSP keep theirs in every figure), and the same input
// gives byte-identical files.
package reports
