// Command go-temoto-robotstxt is reptest's protocol-v2 adapter for
// github.com/temoto/robotstxt. The library matches paths, not URLs.
package main

import (
	"github.com/temoto/robotstxt"

	"reptest/adapters/internal/protocol"
)

var info = protocol.Info{
	Name:     "github.com/temoto/robotstxt",
	Module:   "github.com/temoto/robotstxt",
	FullURLs: false, // Group.Test takes a path (reptest sends path and query)
}

// Parse parses body once, as a robots.txt fetched with status 200; the matcher finds the
// agent's group and tests the path. A parse error (the library rejects e.g. a Disallow
// before any User-agent) is an error for every query, not a verdict.
func Parse(body []byte) (protocol.Matcher, error) {
	robots, err := robotstxt.FromStatusAndBytes(200, body)
	if err != nil {
		return nil, err
	}
	return func(agent, path string) (protocol.Verdict, error) {
		return protocol.Verdict{Allowed: robots.FindGroup(agent).Test(path)}, nil
	}, nil
}

// Check answers one query with a parse of its own (Parse, then the matcher).
func Check(body []byte, agent, path string) (protocol.Verdict, error) {
	m, err := Parse(body)
	if err != nil {
		return protocol.Verdict{}, err
	}
	return m(agent, path)
}

func main() { protocol.MainBatch(info, Parse) }
