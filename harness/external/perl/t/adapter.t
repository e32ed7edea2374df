#!/usr/bin/env perl
# Speaks protocols v1 and v2 (harness/PROTOCOL.md) with adapter.pl, as reptest does.
# Run: prove harness/external/perl/t/   (after: bash harness/external/setup perl)
use strict;
use warnings;
use Test::More;
use File::Temp ();
use File::Basename qw(dirname);
use File::Spec ();
use IPC::Open3 qw(open3);
use JSON::PP ();
use MIME::Base64 qw(encode_base64);

my $adapter = File::Spec->catfile(dirname(File::Spec->rel2abs(__FILE__)), '..', 'adapter.pl');
my $json = JSON::PP->new->canonical;

eval { require WWW::RobotRules; 1 }
    or BAIL_OUT('WWW::RobotRules is not installed: run bash harness/external/setup perl');

# Runs the adapter on $input (bytes); returns (handshake, [answers], raw output, exit code).
sub converse {
    my ($input) = @_;
    my $in = File::Temp->new;
    binmode $in;
    print {$in} $input;
    close $in;
    open(my $stdin, '<', $in->filename) or die $!;
    my $pid = open3('<&' . fileno($stdin), my $out, undef, $^X, $adapter);
    binmode $out;
    my $raw = do { local $/; <$out> };
    waitpid($pid, 0);
    my $code = $? >> 8;
    my @lines = split /\n/, $raw;
    my @objs = map { $json->decode($_) } @lines;
    my $hello = shift @objs;
    return ($hello, \@objs, $raw, $code);
}

my $next_id = 1;
sub request {
    my ($body, $agent, $url) = @_;
    return { id => $next_id++, robots_b64 => encode_base64($body, ''), agent => $agent, url => $url };
}
sub wire { join '', map { $json->encode($_) . "\n" } @_ }
sub verdicts { [map { [$_->{id}, $_->{verdict} // 'error'] } @{ $_[0] }] }

{
    my ($hello, $answers, undef, $code) = converse('');
    is($code, 0, 'exits 0 at end of input');
    is_deeply($answers, [], 'no answers without requests');
    is($hello->{protocol}, 2, 'protocol 2');
    is($hello->{name}, 'perl-www-robotrules', 'name');
    is($hello->{language}, 'Perl', 'language');
    is($hello->{version}, $WWW::RobotRules::VERSION, 'version is the installed one');
    ok($hello->{capabilities}{full_urls}, 'takes full URLs');
}

{
    my $foo = "User-agent: foobot\nDisallow: /\n";
    my $star = "User-agent: *\nDisallow: /private\n";
    my @reqs = (
        request($foo, 'foobot', 'https://example.com/page'),
        request($foo, 'barbot', 'https://example.com/page'),
        request($star, 'foobot', 'https://example.com/private/x'),
        request($star, 'foobot', 'https://example.com/public'),
    );
    my (undef, $answers) = converse(wire(@reqs));
    is_deeply(verdicts($answers), [
        [$reqs[0]{id}, 'disallowed'], [$reqs[1]{id}, 'allowed'],
        [$reqs[2]{id}, 'disallowed'], [$reqs[3]{id}, 'allowed'],
    ], 'agent, URL and body reach the right arguments');
}

{
    my @reqs = (
        request("User-agent: *\nDisallow: /\n", 'foobot', 'https://example.com/a'),
        request("User-agent: *\nDisallow: /b\n", 'foobot', 'https://example.com/a'),
        request("User-agent: *\nDisallow: /\n", 'foobot', 'https://example.com/a'),
    );
    my (undef, $answers) = converse(wire(@reqs));
    is_deeply([map { $_->{verdict} } @$answers], [qw(disallowed allowed disallowed)],
        'a fresh parser per request');
}

{
    my @bodies = (
        "\xef\xbb\xbfUser-agent: *\r\nDisallow: /a\x00b\r\nDisallow: /\xff\xfe\xc3\x28\r\n",
        "\r\r\n\x00\x00\xff", '', 'Disallow', "\xef\xbb\xbf",
        "User-agent: *\nDisallow: /\xe2\x80\xa8x\x85y\n",
    );
    my @reqs = map { request($_, 'foobot', 'https://example.com/a%00b') } @bodies;
    push @reqs, request("User-agent: *\nDisallow: /\n", 'foobot', 'https://example.com/x');
    my (undef, $answers, undef, $code) = converse(wire(@reqs));
    is($code, 0, 'hostile bodies: exits 0');
    is_deeply([map { $_->{id} } @$answers], [map { $_->{id} } @reqs], 'hostile bodies: every one answered');
    ok(!grep({ !(defined $_->{verdict} || defined $_->{error}) } @$answers), 'hostile bodies: verdicts or errors');
    is($answers->[-1]{verdict}, 'disallowed', 'hostile bodies: the adapter lives on');
}

{
    my (@reqs, @want);
    for my $i (0 .. 59) {
        my $body = $i % 2 ? "User-agent: *\nDisallow: /\n" : "User-agent: *\nDisallow: /nothing\n";
        # U+2028, U+0085 and CR travel escaped; a reader splitting on them would break.
        my $req = request($body, "bot\x{2028}\x{85}\r$i", "https://example.com/p$i");
        $req->{robots_b64} = '!!!!' if $i % 3 == 2;
        push @reqs, $req;
        push @want, [$req->{id}, $i % 3 == 2 ? 'error' : $i % 2 ? 'disallowed' : 'allowed'];
    }
    my $ascii = JSON::PP->new->ascii->canonical;
    my (undef, $answers, $raw) = converse(join '', map { $ascii->encode($_) . "\n" } @reqs);
    is_deeply(verdicts($answers), \@want, 'pipelined requests answered in order');
    unlike($raw, qr/[^\x00-\x7f]/, 'output is ASCII');
}

{
    my $good = request("User-agent: *\nDisallow: /\n", 'foobot', 'https://example.com/x');
    my $input = join("\n",
        'not json', '[1,2]',
        $json->encode({ id => 900, robots_b64 => '!!!', agent => 'a', url => 'https://e.com/' }),
        $json->encode({ id => 901, robots_b64 => 'QQ==', agent => [], url => 'https://e.com/' }),
        $json->encode({ robots_b64 => 'QQ==', agent => 'a', url => 'https://e.com/' }),
        $json->encode({ id => 902, robots_b64 => '', agent => 'a', url => '/relative' }),
        '', $json->encode($good)) . "\n";
    my (undef, $answers, undef, $code) = converse($input);
    is($code, 0, 'malformed requests: exits 0');
    is_deeply([map { [$_->{id}, defined $_->{error} ? 'error' : $_->{verdict}] } @$answers],
        [[undef, 'error'], [undef, 'error'], [900, 'error'], [901, 'error'], [undef, 'error'],
         [902, 'error'], [$good->{id}, 'disallowed']],
        'malformed requests get error answers');
}

{
    # adapter.pl cuts robots_b64 out of the line before JSON::PP sees it; escapes and a
    # look-alike key inside another string must still come out right.
    my $dis = encode_base64("User-agent: *\nDisallow: /\n", '');    # ends in "Lwo="
    (my $dis_u = $dis) =~ s/=/\\u003d/;
    my $slash = encode_base64("User-agent: *\nDisallow: /\xff\n", '');
    like($slash, qr{/}, 'fixture has a "/" in its base64');
    (my $slash_esc = $slash) =~ s{/}{\\/}g;
    my @lines = (
        qq({"id":1,"robots_b64":"$dis_u","agent":"a","url":"https://e.com/x"}),
        qq({"id":2,"robots_b64":"$slash_esc","agent":"a","url":"https://e.com/%FF"}),
        qq({"id":3,"agent":"\\"robots_b64\\":\\"QQ==\\"","robots_b64" : "$dis","url":"https://e.com/x"}),
        qq({"id":4,"robots_b64":"$dis","agent":"a","url":"https://e.com/x","robots_b64":"QQ=="}),
        qq({"id":5,"robots_b64":"$dis","agent":"a","url":"https://e.com/x"),
    );
    my (undef, $answers) = converse(join("\n", @lines) . "\n");
    is_deeply(verdicts($answers),
        [[1, 'disallowed'], [2, 'disallowed'], [3, 'disallowed'], [4, 'allowed'], [undef, 'error']],
        'robots_b64 taken out of the line right');
    my $big = "User-agent: *\nDisallow: /first\n" . ('#' x (3 * 1024 * 1024)) . "\n";
    (undef, $answers) = converse(wire(request($big, 'examplebot', 'https://example.com/first')));
    is($answers->[0]{verdict}, 'disallowed', 'a 3 MB body is answered');
}

{
    # A batch request (protocol 2) answers each query as a request of its own would, with
    # several agents and origins in one request.
    my $body = "User-agent: foobot\nDisallow: /private\nAllow: /private/open\n\nUser-agent: *\nDisallow: /\n";
    my @queries;
    for my $agent ('foobot', 'barbot', 'FooBot', '') {
        for my $url ('https://example.com/private/x', 'https://example.com/public',
                     'http://example.org:8080/private?q=1', 'mailto:x') {
            push @queries, { agent => $agent, url => $url };
        }
    }
    my @singles = map { request($body, $_->{agent}, $_->{url}) } @queries;
    my $batch = { id => $next_id++, robots_b64 => encode_base64($body, ''), queries => \@queries };
    my $empty = { id => $next_id++, robots_b64 => encode_base64($body, ''), queries => [] };
    my $bad   = { id => $next_id++, robots_b64 => '!!!!', queries => [] };
    my $after = request("User-agent: *\nAllow: /\n", 'foobot', 'https://example.com/private/x');
    my ($hello, $answers) = converse(wire(@singles, $batch, $empty, $bad, $after));
    my @single_answers = map { my %a = %$_; delete $a{id}; \%a } @{$answers}[0 .. $#singles];
    my ($got, $got_empty, $got_bad, $got_after) = @{$answers}[scalar(@singles) .. $#$answers];
    is_deeply($got, { id => $batch->{id}, answers => \@single_answers }, 'a batch answers like single requests');
    ok((grep { exists $_->{error} } @single_answers) && (grep { exists $_->{verdict} } @single_answers),
        'errors and verdicts both in the batch');
    is_deeply($got_empty, { id => $empty->{id}, answers => [] }, 'an empty batch');
    ok($got_bad->{id} == $bad->{id} && defined $got_bad->{error}, 'bad base64 is an error for the request');
    is($got_after->{verdict}, 'allowed', 'nothing kept from the batch');
}

done_testing();
