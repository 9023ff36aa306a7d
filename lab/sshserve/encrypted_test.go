package sshserve_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/provadev/prova/lab/sshserve"
)

// TestEncryptedKey writes and reads back one passphrase-protected key:
// x/crypto's bcrypt_pbkdf (16 rounds) costs about a second, over ten
// under -race, so it runs beside the other tests.
func TestEncryptedKey(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "enc")
	s, err := sshserve.NewKeyFile(p, sshserve.Ed25519, "c", []byte("pw"))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(p)
	if _, err := ssh.ParsePrivateKey(raw); err == nil {
		t.Error("encrypted key parsed without its passphrase")
	}
	k, err := ssh.ParsePrivateKeyWithPassphrase(raw, []byte("pw"))
	if err != nil || !bytes.Equal(k.PublicKey().Marshal(), s.PublicKey().Marshal()) {
		t.Errorf("the key read back differs (%v)", err)
	}
}
