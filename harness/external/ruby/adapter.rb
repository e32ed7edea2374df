#!/usr/bin/env ruby
# frozen_string_literal: true

# reptest adapter for webrobots (Debian ruby-webrobots); speaks harness/PROTOCOL.md
# (protocol 2) on stdin/stdout. Fresh WebRobots objects for every request, whose robots.txt
# fetch callback hands over the request's body:
#   WebRobots.new(agent, http_get: ->(uri) { body }, crawl_delay: :ignore).allowed?(url)
# webrobots answers true for a robots.txt it cannot parse (it keeps the parse error aside);
# that is its verdict, and reptest gets it as such.
#
# A WebRobots object is made for one agent (its parser keeps that agent's rules) and
# caches each site's parsed robots.txt, fetching it once: so a batch request (protocol 2)
# makes one WebRobots per distinct agent among its queries, which fetches (from the
# callback) and parses the body once per site, and asks it allowed? for each query.
# Nothing is kept from one request to the next.

require 'json'
begin
  gem 'webrobots' # activates the gem spec, so its version is known
rescue LoadError
  nil # loadable without a spec (plain $LOAD_PATH); the version then comes from the library
end
require 'webrobots'
require 'uri'

$stdin.binmode
$stdout.binmode
$stdout.sync = true

def library_version
  spec = Gem.loaded_specs['webrobots']
  spec ? spec.version.to_s : Webrobots::VERSION
end

# ascii_only: every non-ASCII character as \uXXXX (surrogate pairs above U+FFFF); JSON
# escapes control characters itself. Text that is not valid UTF-8 (an error message quoting
# body bytes) is scrubbed first, since JSON cannot carry it.
def emit(obj)
  $stdout.write(JSON.generate(obj, ascii_only: true) << "\n")
end

def text(value)
  s = value.to_s.dup.force_encoding(Encoding::UTF_8)
  s.valid_encoding? ? s : s.scrub("\uFFFD")
end

def describe(err)
  text("#{err.class}: #{err.message}")
end

# The robots.txt URI webrobots may ask for when checking url: the root of url's origin.
def robots_uri?(uri, url)
  target = URI.parse(url)
  uri.scheme == target.scheme && uri.host.to_s.casecmp?(target.host.to_s) &&
    uri.port == target.port && uri.path == '/robots.txt'
end

# The robots of one request, by agent: [WebRobots, the URIs its callback was asked for].
def robots_for(robots, body, agent)
  robots[agent] ||= begin
    asked = []
    [WebRobots.new(agent,
                   http_get: lambda { |uri|
                     asked << uri
                     body
                   },
                   crawl_delay: :ignore), asked]
  end
end

def check(robots, body, agent, url)
  web_robots, asked = robots_for(robots, body, agent)
  asked.clear
  allowed = web_robots.allowed?(url)
  raise "allowed? answered #{allowed.inspect}, not a boolean" unless [true, false].include?(allowed)

  # The callback serves the one body to any URI; make sure it was only asked (during this
  # query) for this one.
  unexpected = asked.reject { |uri| robots_uri?(uri, url) }
  raise "webrobots asked for #{unexpected.map(&:to_s).join(', ')}, not the query's robots.txt" unless unexpected.empty?

  allowed ? 'allowed' : 'disallowed'
end

def answer(line)
  req = begin
    JSON.parse(line)
  rescue JSON::ParserError => e
    return { id: nil, error: "invalid JSON request: #{describe(e)}" }
  end
  return { id: nil, error: 'request is not a JSON object' } unless req.is_a?(Hash)

  id = req['id']
  return { id: nil, error: 'request has no integer id' } unless id.is_a?(Integer)
  return batch(id, req) if req.key?('queries')

  %w[robots_b64 agent url].each do |field|
    return { id: id, error: "request field #{field} is not a string" } unless req[field].is_a?(String)
  end
  body = begin
    req['robots_b64'].unpack1('m0') # strict, padded standard base64; binary string
  rescue ArgumentError
    return { id: id, error: 'robots_b64 is not padded standard base64' }
  end

  # The body stays bytes (ASCII-8BIT), as Net::HTTP hands it over; the agent goes in as
  # bytes too, so the library compares like with like.
  { id: id, verdict: check({}, body, req['agent'].b, req['url']) }
rescue StandardError, ScriptError => e
  { id: id, error: describe(e) }
end

# A batch request (protocol 2): one answer per query, in order.
def batch(id, req)
  queries = req['queries']
  return { id: id, error: 'request field robots_b64 is not a string' } unless req['robots_b64'].is_a?(String)
  return { id: id, error: 'request field queries is not an array' } unless queries.is_a?(Array)
  unless queries.all? { |q| q.is_a?(Hash) && q['agent'].is_a?(String) && q['url'].is_a?(String) }
    return { id: id, error: 'each query must be an object with string agent and url' }
  end

  body = begin
    req['robots_b64'].unpack1('m0')
  rescue ArgumentError
    return { id: id, error: 'robots_b64 is not padded standard base64' }
  end
  robots = {} # this request's WebRobots only
  answers = queries.map do |q|
    { verdict: check(robots, body, q['agent'].b, q['url']) }
  rescue StandardError, ScriptError => e
    { error: describe(e) }
  end
  { id: id, answers: answers }
rescue StandardError, ScriptError => e
  { id: id, error: describe(e) }
end

emit(protocol: 2, name: 'ruby-webrobots', version: library_version, language: 'Ruby',
     capabilities: { full_urls: true, reports_line: false })

# Lines end at LF only; a trailing CR is JSON whitespace anyway.
$stdin.each_line("\n") do |line|
  next if line.strip.empty?

  emit(answer(line))
end
