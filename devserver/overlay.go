package devserver

import (
	"fmt"
	"strings"
)

// Overlay titles the browser shows above the message.
const (
	TitleBuildFailed = "Build failed"
	TitleBootFailed  = "Worker failed to boot"
)

// ErrorOverlay is what the browser overlay shows when a rebuild or the boot
// check of a new bundle fails (the old workers keep serving meanwhile). The
// location fields follow esbuild's Message.Location: File relative to the
// app, Line 1-based, Column 0-based in bytes, LineText the source line.
// Text is the full message as esbuild formats it (esbuild.FormatMessages,
// without color); when empty, Hub.Error fills it from the other fields.
type ErrorOverlay struct {
	Title    string `json:"title"`
	Message  string `json:"message"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Column   int    `json:"column"`
	LineText string `json:"lineText"`
	Text     string `json:"text"`
}

// format renders e the way esbuild lays out a message: the location, the
// message, then the source line with a caret under the column.
func (e ErrorOverlay) format() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d:%d", e.Line, e.Column)
		}
		b.WriteString(": ")
	}
	b.WriteString(e.Message)
	if e.LineText != "" {
		fmt.Fprintf(&b, "\n\n    %s\n    %s^", e.LineText, strings.Repeat(" ", caretOffset(e.LineText, e.Column)))
	}
	return b.String()
}

// caretOffset converts esbuild's byte column into a count of characters, so
// the caret lines up under non-ASCII source text. Out-of-range columns are
// clamped to the line.
func caretOffset(line string, col int) int {
	col = max(0, min(col, len(line)))
	return len([]rune(line[:col]))
}
