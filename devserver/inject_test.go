package devserver

import (
	"strings"
	"testing"
)

func TestInjectHTML(t *testing.T) {
	tag := "<script>" + ClientScript + "</script>"
	tests := []struct{ name, in, want string }{
		{"before </body>", "<html><body><p>hi</p></body></html>", "<html><body><p>hi</p>" + tag + "</body></html>"},
		{"case-insensitive", "<BODY>x</BODY>", "<BODY>x" + tag + "</BODY>"},
		{"mixed case", "<body>x</Body >", "<body>x</Body >" + tag},
		{"last </body> wins", "<body><pre>&lt;/body&gt; </body></pre></body>", "<body><pre>&lt;/body&gt; </body></pre>" + tag + "</body>"},
		{"no </body>: appended", "<p>fragment</p>", "<p>fragment</p>" + tag},
		{"empty", "", tag},
		{"non-ASCII before", "<body>İİİ ſ K</body>", "<body>İİİ ſ K" + tag + "</body>"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := InjectHTML(tt.in); got != tt.want {
				t.Errorf("InjectHTML(%q) =\n%q\nwant\n%q", tt.in, got, tt.want)
			}
		})
	}
}

func TestClientScriptIsInlineable(t *testing.T) {
	lower := strings.ToLower(ClientScript)
	if strings.Contains(lower, "</script") || strings.Contains(lower, "<!--") {
		t.Fatal("ClientScript would end or confuse the inline <script> element")
	}
	if !strings.Contains(ClientScript, "'"+LiveReloadPath+"'") {
		t.Fatalf("ClientScript does not connect to %s", LiveReloadPath)
	}
}
