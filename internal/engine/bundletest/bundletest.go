// Package bundletest builds OPA bundles for tests, signed or not, with
// OPA's own bundle code (the same as `opa build --signing-key`), so the
// daemon's fleet tests exercise exactly what a real bundle server serves.
// It lives under internal/engine because engine is the only package that
// imports OPA.
package bundletest

import (
	"bytes"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"testing"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/bundle"
)

// Key signs bundles; Verify is what the OPA configuration's keys entry
// holds (the public key for RS256, the shared secret for HS256).
type Key struct {
	Alg    string
	Sign   string
	Verify string
}

// RSAKey makes a fresh RS256 key pair.
func RSAKey(t testing.TB) Key {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := x509.MarshalPKIXPublicKey(&k.PublicKey)
	if err != nil {
		t.Fatal(err)
	}
	return Key{
		Alg:    "RS256",
		Sign:   string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(k)})),
		Verify: string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub})),
	}
}

// HMACKey makes a fresh HS256 shared secret.
func HMACKey(t testing.TB) Key {
	t.Helper()
	var b [32]byte
	rand.Read(b[:])
	s := hex.EncodeToString(b[:])
	return Key{Alg: "HS256", Sign: s, Verify: s}
}

// Spec describes a bundle.
type Spec struct {
	Revision string
	Roots    []string          // nil means ["agentjail/org"]
	Files    map[string]string // path in the bundle ("agentjail/org/policy.rego") -> Rego
	Data     map[string]any    // the bundle's data.json
	// Key signs the bundle under KeyID; nil leaves it unsigned.
	Key   *Key
	KeyID string
	// Tamper, when set, replaces a file's text after signing.
	Tamper map[string]string
}

// Build writes the bundle as a gzipped tarball.
func Build(t testing.TB, s Spec) []byte {
	t.Helper()
	roots := s.Roots
	if roots == nil {
		roots = []string{"agentjail/org"}
	}
	b := bundle.Bundle{
		Manifest: bundle.Manifest{Revision: s.Revision, Roots: &roots},
		Data:     s.Data,
	}
	if b.Data == nil {
		b.Data = map[string]any{}
	}
	for path, text := range s.Files {
		path = "/" + path
		m, err := ast.ParseModuleWithOpts(path, text, ast.ParserOptions{RegoVersion: ast.RegoV1})
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		b.Modules = append(b.Modules, bundle.ModuleFile{URL: path, Path: path, Raw: []byte(text), Parsed: m})
	}
	if s.Key != nil {
		if err := b.GenerateSignature(bundle.NewSigningConfig(s.Key.Sign, s.Key.Alg, ""), s.KeyID, true); err != nil {
			t.Fatal(err)
		}
	}
	for path, text := range s.Tamper {
		for i := range b.Modules {
			if b.Modules[i].Path == "/"+path {
				b.Modules[i].Raw = []byte(text)
				b.Modules[i].Parsed = ast.MustParseModuleWithOpts(text, ast.ParserOptions{RegoVersion: ast.RegoV1})
			}
		}
	}
	var buf bytes.Buffer
	if err := bundle.Write(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}
