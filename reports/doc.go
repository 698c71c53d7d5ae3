// Package reports draws the report of the paper's experiments: each
// experiment hands over a Section (figures as plain data, tables with
// formatted cells, and the paper's claims set against our numbers), and
// Render turns a list of them into a directory a browser opens from the
// file system: figures/*.png and *.svg drawn with gonum.org/v1/plot,
// index.html with every figure, table and claim, and claims.md and
// tables.md for pasting into Markdown. Figures are validated before
// drawing (errors name figure, panel and series), colours follow labels
// (FIFO, FAIR and HFSP keep theirs in every figure), and the same input
// gives byte-identical files.
package reports
