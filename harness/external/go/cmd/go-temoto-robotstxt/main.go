// Command go-temoto-robotstxt is reptest's protocol-v1 adapter for
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

// Check parses body as a robots.txt fetched with status 200 and tests path for agent.
// A parse error (the library rejects e.g. a Disallow before any User-agent) is an error,
// not a verdict.
func Check(body []byte, agent, path string) (protocol.Verdict, error) {
	robots, err := robotstxt.FromStatusAndBytes(200, body)
	if err != nil {
		return protocol.Verdict{}, err
	}
	return protocol.Verdict{Allowed: robots.FindGroup(agent).Test(path)}, nil
}

func main() { protocol.Main(info, Check) }
