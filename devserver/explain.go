package devserver

import (
	"errors"
	"strings"

	"bext/config"
	"bext/engine"
)

// TitleConfigFailed is the overlay title when a changed config file cannot
// be applied (invalid, or the app it describes does not build or boot).
const TitleConfigFailed = "Config not applied"

// OverlayFor turns an error of a rebuild, boot or config reload into what
// the overlay shows. title applies to errors of no known type; an esbuild
// error is always titled TitleBuildFailed and carries the location of its
// first message (all messages are in Text, formatted by esbuild).
func OverlayFor(title string, err error) ErrorOverlay {
	var (
		be   *engine.BuildError
		ce   *config.Error
		boot *engine.BootError
	)
	switch {
	case errors.As(err, &be) && len(be.Messages) > 0:
		m := be.Messages[0]
		e := ErrorOverlay{Title: TitleBuildFailed, Message: m.Text, Text: strings.TrimRight(be.Text, "\n")}
		if loc := m.Location; loc != nil {
			e.File, e.Line, e.Column, e.LineText = loc.File, loc.Line, loc.Column, loc.LineText
		}
		if e.Text == "" {
			e.Text = e.format()
		}
		return e
	case errors.As(err, &ce) && len(ce.Problems) > 0:
		p := ce.Problems[0]
		return ErrorOverlay{Title: title, Message: p.Msg, File: ce.File, Line: p.Line, Text: ce.Error()}
	case errors.As(err, &boot):
		text := err.Error()
		if boot.Stack != "" && !strings.Contains(text, boot.Stack) {
			text += "\n\n" + boot.Stack
		}
		return ErrorOverlay{Title: title, Message: boot.Message, Text: text}
	}
	return ErrorOverlay{Title: title, Message: err.Error(), Text: err.Error()}
}
