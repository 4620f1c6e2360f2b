package gemini

import (
	"reflect"
	"regexp"
	"testing"
)

// urlPattern is what findURLs implements by hand; the tests hold them equal.
var urlPattern = regexp.MustCompile(`(?i)\bhttps?://[^\s"'<>` + "`" + `]+`)

var urlSamples = []string{
	"",
	"summarise http://169.254.169.254/latest and https://example.com/",
	"HTTPS://EXAMPLE.COM/a HtTp://x",
	"xhttp://no-boundary _http://no _https://no 9http://no",
	"(http://yes) [https://yes] {http://yes}",
	"é http://after-accent éhttp://after-accent-too",
	"http:// https:/x http:/ http:x https//x",
	"http://a\"b http://c'd http://e<f http://g>h http://i`j http://k l",
	"http://tab\there http://nl\nhere http://ff\fhere http://cr\rhere http://vt\vhere",
	"httpſ://long-s httpS://upper-s httpss://no",
	"http://a,http://b;http://c",
	"http://\xff\xfe bad utf8 \xffhttp://after-bad",
	"http://ok/é/ü?q=1#frag",
	"hhttp://x ahttps://y",
	"http://1 http://2 http://3 http://4 http://5 http://6 http://7 http://8 http://9 http://10 http://11 http://12 http://13 http://14 http://15 http://16 http://17 http://18 http://19 http://20 http://21",
}

func TestFindURLsMatchesThePattern(t *testing.T) {
	for _, s := range urlSamples {
		want := urlPattern.FindAllString(s, 20)
		if got := findURLs(s, 20); !reflect.DeepEqual(got, want) {
			t.Errorf("findURLs(%q)\n got %q\nwant %q", s, got, want)
		}
	}
}

func FuzzFindURLs(f *testing.F) {
	for _, s := range urlSamples {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := urlPattern.FindAllString(s, 20)
		if got := findURLs(s, 20); !reflect.DeepEqual(got, want) {
			t.Errorf("findURLs(%q)\n got %q\nwant %q", s, got, want)
		}
	})
}
