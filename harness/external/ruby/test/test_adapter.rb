# frozen_string_literal: true

# Speaks protocols v1 and v2 (harness/PROTOCOL.md) with adapter.rb, as reptest does.
# Run: ruby harness/external/ruby/test/test_adapter.rb   (after: bash harness/external/setup ruby)
require 'minitest/autorun'
require 'json'
require 'open3'

class AdapterTest < Minitest::Test
  ADAPTER = File.expand_path('../adapter.rb', __dir__)

  @@next_id = 0

  # Runs the adapter on input; returns [handshake, answers, raw output, exit status].
  def converse(input)
    out, err, status = Open3.capture3(RbConfig.ruby, ADAPTER, stdin_data: input, binmode: true)
    lines = out.split("\n")
    objs = lines.map { |l| JSON.parse(l) }
    flunk "no handshake; stderr: #{err}" if objs.empty?
    [objs.first, objs.drop(1), out, status]
  end

  def request(body, agent, url)
    @@next_id += 1
    { 'id' => @@next_id, 'robots_b64' => [body.b].pack('m0'), 'agent' => agent, 'url' => url }
  end

  def wire(reqs)
    reqs.map { |r| JSON.generate(r, ascii_only: true) + "\n" }.join
  end

  def verdicts(answers)
    answers.map { |a| [a['id'], a['verdict'] || 'error'] }
  end

  def test_handshake
    hello, answers, _, status = converse('')
    assert status.success?
    assert_equal [], answers
    assert_equal 2, hello['protocol']
    assert_equal 'ruby-webrobots', hello['name']
    assert_equal 'Ruby', hello['language']
    assert_equal true, hello['capabilities']['full_urls']
    require 'webrobots/version'
    assert_equal Webrobots::VERSION, hello['version']
  end

  # A batch request (protocol 2) answers each query as a request of its own would, with
  # several agents and sites in one request.
  def test_batch_answers_like_single_requests
    body = "User-agent: foobot\nDisallow: /private\nAllow: /private/open\n\nUser-agent: *\nDisallow: /\n"
    queries = []
    ['foobot', 'barbot', 'FooBot', ''].each do |agent|
      ['https://example.com/private/x', 'https://example.com/private/open/y', 'https://example.com/public',
       'http://example.org:8080/private?q=1', 'mailto:x'].each do |url|
        queries << { 'agent' => agent, 'url' => url }
      end
    end
    singles = queries.map { |q| request(body, q['agent'], q['url']) }
    batch = { 'id' => (@@next_id += 1), 'robots_b64' => [body].pack('m0'), 'queries' => queries }
    empty = { 'id' => (@@next_id += 1), 'robots_b64' => [body].pack('m0'), 'queries' => [] }
    bad = { 'id' => (@@next_id += 1), 'robots_b64' => '!!!!', 'queries' => [] }
    after = request("User-agent: *\nAllow: /\n", 'foobot', 'https://example.com/private/x')
    _, answers, _, status = converse(wire(singles + [batch, empty, bad, after]))
    assert status.success?
    expected = answers.take(singles.size).map { |a| a.reject { |k, _| k == 'id' } }
    got, got_empty, got_bad, got_after = answers.drop(singles.size)
    assert_equal({ 'id' => batch['id'], 'answers' => expected }, got)
    assert(expected.any? { |a| a.key?('error') } && expected.any? { |a| a.key?('verdict') })
    assert_equal({ 'id' => empty['id'], 'answers' => [] }, got_empty)
    assert_equal bad['id'], got_bad['id']
    assert_kind_of String, got_bad['error']
    assert_equal 'allowed', got_after['verdict']
  end

  def test_arguments_reach_the_right_places
    foo = "User-agent: foobot\nDisallow: /\n"
    star = "User-agent: *\nDisallow: /private\n"
    reqs = [
      request(foo, 'foobot', 'https://example.com/page'),
      request(foo, 'barbot', 'https://example.com/page'),
      request(star, 'foobot', 'https://example.com/private/x'),
      request(star, 'foobot', 'https://example.com/public')
    ]
    _, answers, = converse(wire(reqs))
    assert_equal reqs.map { |r| r['id'] }.zip(%w[disallowed allowed disallowed allowed]), verdicts(answers)
  end

  def test_fresh_parser_per_request
    reqs = [
      request("User-agent: *\nDisallow: /\n", 'foobot', 'https://example.com/a'),
      request("User-agent: *\nDisallow: /b\n", 'foobot', 'https://example.com/a'),
      request("User-agent: *\nDisallow: /\n", 'foobot', 'https://example.com/a')
    ]
    _, answers, = converse(wire(reqs))
    assert_equal %w[disallowed allowed disallowed], answers.map { |a| a['verdict'] }
  end

  def test_hostile_bodies
    bodies = [
      "\xef\xbb\xbfUser-agent: *\r\nDisallow: /a\x00b\r\nDisallow: /\xff\xfe\xc3\x28\r\n",
      "\r\r\n\x00\x00\xff", '', 'Disallow', "\xef\xbb\xbf",
      "User-agent: *\nDisallow: /\xe2\x80\xa8x\x85y\n",
      "User-agent: *\nDisallow: /\xc3\xa9\n"
    ]
    reqs = bodies.map { |b| request(b, 'foobot', 'https://example.com/%C3%A9') }
    reqs << request("User-agent: *\nDisallow: /\n", 'foobot', 'https://example.com/x')
    _, answers, _, status = converse(wire(reqs))
    assert status.success?
    assert_equal reqs.map { |r| r['id'] }, answers.map { |a| a['id'] }
    answers.each { |a| assert(%w[allowed disallowed].include?(a['verdict']) || a['error'].is_a?(String), a.inspect) }
    assert_equal 'disallowed', answers.last['verdict']
  end

  def test_pipelined_in_order_split_on_lf_only
    reqs = []
    want = []
    60.times do |i|
      body = i.odd? ? "User-agent: *\nDisallow: /\n" : "User-agent: *\nDisallow: /nothing\n"
      # U+2028, U+0085 and CR travel escaped; a reader splitting on them would break.
      req = request(body, "bot\u2028\u0085\r#{i}", "https://example.com/p#{i}")
      req['robots_b64'] = '!!!!' if i % 3 == 2
      reqs << req
      want << [req['id'], i % 3 == 2 ? 'error' : i.odd? ? 'disallowed' : 'allowed']
    end
    _, answers, raw, = converse(wire(reqs))
    assert_equal want, verdicts(answers)
    assert raw.b.bytes.all? { |b| b < 0x80 }, 'output is ASCII'
  end

  def test_malformed_requests
    good = request("User-agent: *\nDisallow: /\n", 'foobot', 'https://example.com/x')
    input = [
      'not json', '[1,2]',
      JSON.generate('id' => 900, 'robots_b64' => '!!!', 'agent' => 'a', 'url' => 'https://e.com/'),
      JSON.generate('id' => 901, 'robots_b64' => 'QQ==', 'agent' => [], 'url' => 'https://e.com/'),
      JSON.generate('robots_b64' => 'QQ==', 'agent' => 'a', 'url' => 'https://e.com/'),
      JSON.generate('id' => 902, 'robots_b64' => '', 'agent' => 'a', 'url' => '/relative'),
      '', JSON.generate(good)
    ].join("\n") + "\n"
    _, answers, _, status = converse(input)
    assert status.success?
    assert_equal [[nil, 'error'], [nil, 'error'], [900, 'error'], [901, 'error'], [nil, 'error'],
                  [902, 'error'], [good['id'], 'disallowed']], verdicts(answers)
  end
end
