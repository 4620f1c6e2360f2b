package jail

import "strings"

// Command is the shell command that runs command under the launcher at
// launcher with the profile at profile: each word single-quoted whole,
// so that any shell reads the original back byte for byte.
func Command(launcher, profile, command string) string {
	return quote(launcher) + " " + LaunchArg + " " + quote(profile) + " " + quote(command)
}

// LaunchArg is the launcher's first argument (agentjail-hook jail ...).
const LaunchArg = "jail"

// Original is the command a Command runs; false when command is not one.
// The post-tool events of some agents carry the rewritten command: they
// are matched with the call that was judged by its original.
func Original(command string) (string, bool) {
	words, ok := quotedWords(command)
	if !ok || len(words) != 4 || words[1] != LaunchArg || !strings.HasSuffix(words[0], "agentjail-hook") {
		return "", false
	}
	return words[3], true
}

func quote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// quotedWords splits a line of words each written as quote writes them
// (the bare word jail among them), or reports that it is not one.
func quotedWords(line string) ([]string, bool) {
	var words []string
	for line != "" {
		if strings.HasPrefix(line, LaunchArg+" ") {
			words, line = append(words, LaunchArg), line[len(LaunchArg)+1:]
			continue
		}
		if line[0] != '\'' {
			return nil, false
		}
		var b strings.Builder
		i := 1
		for {
			j := strings.IndexByte(line[i:], '\'')
			if j < 0 {
				return nil, false
			}
			b.WriteString(line[i : i+j])
			i += j + 1
			if strings.HasPrefix(line[i:], `\''`) {
				b.WriteByte('\'')
				i += 3
				continue
			}
			break
		}
		words = append(words, b.String())
		line = line[i:]
		if line != "" {
			if line[0] != ' ' {
				return nil, false
			}
			line = line[1:]
		}
	}
	return words, true
}
