package reports

import (
	"fmt"
	"path/filepath"
	"runtime"
	"sync"

	"sojourn/internal/atomicfile"
)

// Render writes the whole report into dir: every figure into dir/figures/
// (PNG and SVG), dir/index.html, dir/claims.md (ClaimsMarkdown) and
// dir/tables.md (every table under its section's title). Sections are
// validated first, and figure names must be distinct across sections as
// they share one directory. Figures are drawn in parallel, but each file
// depends only on its figure and errors are reported in figure order, so
// the outcome does not depend on scheduling. Files of figures no longer in
// the report are left in place.
func Render(dir string, info Info, sections []Section) error {
	if err := validateAll(sections); err != nil {
		return err
	}
	var figs []Figure
	for _, s := range sections {
		figs = append(figs, s.Figures...)
	}
	if err := writeFigures(filepath.Join(dir, "figures"), figs); err != nil {
		return err
	}
	if err := WriteIndex(dir, info, sections); err != nil {
		return err
	}
	for name, text := range map[string]string{
		"claims.md": ClaimsMarkdown(sections),
		"tables.md": tablesMarkdown(sections),
	} {
		path := filepath.Join(dir, name)
		if err := atomicfile.WriteBytes(path, []byte(text)); err != nil {
			return fmt.Errorf("reports: write %s: %w", path, err)
		}
	}
	return nil
}

// writeFigures draws figs on as many goroutines as there are usable CPUs
// and returns the error of the first failing figure in figs' order.
func writeFigures(dir string, figs []Figure) error {
	errs := make([]error, len(figs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(figs)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				errs[i] = WriteFigure(dir, figs[i])
			}
		}()
	}
	for i := range figs {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// validateAll validates each section and what they must not share: section
// names (anchors, claims) and figure names (files).
func validateAll(sections []Section) error {
	names := map[string]bool{}
	figs := map[string]string{} // figure name -> section
	for _, s := range sections {
		if err := s.Validate(); err != nil {
			return fmt.Errorf("reports: %w", err)
		}
		if names[s.Name] {
			return fmt.Errorf("reports: %w", invalid(fmt.Sprintf("section %q", s.Name), "two sections of that name"))
		}
		names[s.Name] = true
		for _, f := range s.Figures {
			if other, ok := figs[f.Name]; ok {
				return fmt.Errorf("reports: %w", invalid(fmt.Sprintf("section %q, figure %q", s.Name, f.Name), "name already used by section %q", other))
			}
			figs[f.Name] = s.Name
		}
	}
	return nil
}
