package main

import (
	"bytes"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/urfave/cli/v2"
)

// helpWidth is the widest line any --help prints: a terminal's 80
// columns. A test walks every command's help and holds it to this.
const helpWidth = 80

// The help conventions of every command: flags shown one way (see
// flagString), -v free for the commands (version is --version alone), and
// the whole help wrapped to helpWidth. These are cli's package variables,
// set once before any command runs.
func init() {
	cli.FlagStringer = flagString
	cli.VersionFlag = &cli.BoolFlag{Name: "version", Usage: "print the version"}
	printer := cli.HelpPrinter
	cli.HelpPrinter = func(w io.Writer, templ string, data any) {
		var b bytes.Buffer
		printer(&b, templ, data)
		_, _ = io.WriteString(w, wrapHelp(b.String(), helpWidth))
	}
}

// flagString is a flag's help line: its names and placeholder, a tab
// (cli aligns the columns), its usage and its default, "(default: X)"
// unquoted whatever the flag's type. A flag with no default (an empty
// string, an empty list) or a boolean that is off by default shows none.
func flagString(f cli.Flag) string {
	df, ok := f.(cli.DocGenerationFlag)
	if !ok {
		return ""
	}
	placeholder, usage := splitPlaceholder(df.GetUsage())
	if df.TakesValue() && placeholder == "" {
		placeholder = "value"
	}
	var names []string
	for _, n := range df.Names() {
		if len(n) == 1 {
			names = append(names, "-"+n)
		} else {
			names = append(names, "--"+n)
		}
	}
	spec := strings.Join(names, ", ")
	if placeholder != "" {
		spec += " " + placeholder
	}
	def := ""
	switch f := f.(type) {
	case *cli.StringFlag:
		def = f.DefaultText
		if def == "" {
			def = f.Value
		}
	case *cli.BoolFlag:
		def = f.DefaultText
		if def == "" && f.Value {
			def = "true"
		}
	default:
		def = df.GetDefaultText()
	}
	if def != "" {
		usage += " (default: " + def + ")"
	}
	return spec + "\t" + strings.TrimSpace(usage)
}

// splitPlaceholder takes the `NAME` a usage text quotes as its flag's
// placeholder, and returns the text without the backquotes.
func splitPlaceholder(usage string) (placeholder, text string) {
	i := strings.IndexByte(usage, '`')
	if i < 0 {
		return "", usage
	}
	j := strings.IndexByte(usage[i+1:], '`')
	if j < 0 {
		return "", usage
	}
	placeholder = usage[i+1 : i+1+j]
	return placeholder, usage[:i] + placeholder + usage[i+1+j+1:]
}

// wrapHelp folds every line of help wider than width at blanks. A
// continuation is indented to the line's second column when it has one
// (the text after a run of two or more blanks: a flag's usage, a command's
// summary), else to the line's own indent; a second column that starts
// past half the width is ignored, and the usage goes on its own lines.
func wrapHelp(help string, width int) string {
	var out strings.Builder
	for _, line := range strings.Split(help, "\n") {
		if utf8.RuneCountInString(line) <= width {
			out.WriteString(line + "\n")
			continue
		}
		lead := len(line) - len(strings.TrimLeft(line, " "))
		hang := lead
		if col := secondColumn(line, lead); col > 0 {
			if col <= width/2 {
				hang = col
			} else {
				// The first column alone, then the rest under it, indented.
				out.WriteString(strings.TrimRight(line[:col], " ") + "\n")
				line = strings.Repeat(" ", lead+4) + line[col:]
				hang = lead + 4
			}
		}
		out.WriteString(fold(line, hang, width))
	}
	return strings.TrimSuffix(out.String(), "\n")
}

// secondColumn is the byte offset of the text after the first run of two
// or more blanks past the indent, or 0.
func secondColumn(line string, lead int) int {
	i := strings.Index(line[lead:], "  ")
	if i < 0 {
		return 0
	}
	j := lead + i
	for j < len(line) && line[j] == ' ' {
		j++
	}
	if j == len(line) {
		return 0
	}
	return j
}

// fold breaks line at blanks into lines of at most width runes, the
// continuations indented by hang blanks. A word longer than a line stays
// whole.
func fold(line string, hang, width int) string {
	var out strings.Builder
	cur := line
	for utf8.RuneCountInString(cur) > width {
		// The last blank at or before width that ends a word.
		cut := -1
		n := 0
		for i, r := range cur {
			if n > width {
				break
			}
			if r == ' ' && i > hang && cur[i-1] != ' ' {
				cut = i
			}
			n++
		}
		if cut < 0 {
			// A word wider than the line: it stays whole, the rest goes on.
			for i := hang + 1; i < len(cur); i++ {
				if cur[i] == ' ' && cur[i-1] != ' ' {
					cut = i
					break
				}
			}
			if cut < 0 {
				break
			}
		}
		out.WriteString(strings.TrimRight(cur[:cut], " ") + "\n")
		cur = strings.Repeat(" ", hang) + strings.TrimLeft(cur[cut:], " ")
	}
	out.WriteString(cur + "\n")
	return out.String()
}

// reflow joins the lines of each paragraph of text (lines between blank
// lines, each starting at column 0) and folds them to width, so that a
// description reads the same at any help width; an indented line (a list,
// an example) is kept as it is.
func reflow(text string, width int) string {
	var out []string
	var para []string
	flush := func() {
		if len(para) > 0 {
			out = append(out, strings.TrimSuffix(fold(strings.Join(para, " "), 0, width), "\n"))
			para = nil
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if line == "" || strings.HasPrefix(line, " ") {
			flush()
			out = append(out, line)
			continue
		}
		para = append(para, strings.TrimSpace(line))
	}
	flush()
	return strings.Join(out, "\n")
}

// reflowDescriptions folds the descriptions of app and of every command to
// the width left after the help's indent of 3.
func reflowDescriptions(app *cli.App) {
	app.Description = reflow(app.Description, helpWidth-3)
	var walk func([]*cli.Command)
	walk = func(cmds []*cli.Command) {
		for _, c := range cmds {
			c.Description = reflow(c.Description, helpWidth-3)
			walk(c.Subcommands)
		}
	}
	walk(app.Commands)
}
