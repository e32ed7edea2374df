package main

import (
	"testing"

	"reptest/adapters/internal/protocol"
)

func TestCheck(t *testing.T) {
	for _, c := range []struct {
		body, agent, url string
		allowed          bool
		line             int
	}{
		{"User-agent: foobot\nDisallow: /\n", "foobot", "https://example.com/page", false, 2},
		{"User-agent: foobot\nDisallow: /\n", "barbot", "https://example.com/page", true, 0},
		{"User-agent: *\nDisallow: /private\n", "foobot", "https://example.com/private/x", false, 2},
		{"User-agent: *\nDisallow: /private\n", "foobot", "https://example.com/public", true, 0},
		{"User-agent: *\nDisallow: /\nAllow: /public\n", "foobot", "https://example.com/public", true, 3},
		// An empty Disallow decides nothing: no line.
		{"User-agent: *\nDisallow:\n", "foobot", "https://example.com/x", true, 0},
		{"\xef\xbb\xbfUser-agent: *\r\nDisallow: /a\x00b\r\nDisallow: /\xff\xfe\r\nDisallow: /c\r\n", "foobot", "https://example.com/c", false, 4},
		{"\xef\xbb\xbfUser-agent: *\r\nDisallow: /a\x00b\r\nDisallow: /\xff\xfe\r\n", "foobot", "https://example.com/a", true, 0},
	} {
		v, err := Check([]byte(c.body), c.agent, c.url)
		if err != nil {
			t.Errorf("Check(%q, %q, %q): %v", c.body, c.agent, c.url, err)
		} else if v.Allowed != c.allowed || v.Line != c.line {
			t.Errorf("Check(%q, %q, %q) = %+v, want allowed %v line %d", c.body, c.agent, c.url, v, c.allowed, c.line)
		}
	}
}

func TestVersion(t *testing.T) {
	if v := protocol.ModuleVersion(info.Module); v != "v1.0.3" {
		t.Errorf("version %q, want the pinned v1.0.3", v)
	}
}
