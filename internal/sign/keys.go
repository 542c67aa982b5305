package sign

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"
	"syscall"

	"github.com/sigstore/sigstore/pkg/cryptoutils"
)

// EnvPrefix marks a key given in an environment variable, as cosign spells it: env://NAME.
const EnvPrefix = "env://"

// DefaultPasswordEnv is the environment variable a cosign key's password is read from (cosign's).
const DefaultPasswordEnv = "COSIGN_PASSWORD"

// maxKeySize bounds a key or policy file or variable: a PEM key is a few kilobytes, a node's
// policy.json a few more.
const maxKeySize = 256 << 10

// readKey reads the key named by ref: env://NAME reads the variable, anything else is a file, read
// only when it is a regular file within maxKeySize. Errors name the file or variable, never the
// content.
func readKey(ref string) ([]byte, error) {
	if name, ok := strings.CutPrefix(ref, EnvPrefix); ok {
		v, set := os.LookupEnv(name)
		switch {
		case name == "":
			return nil, fmt.Errorf("key %q: name the environment variable after %s", ref, EnvPrefix)
		case !set || v == "":
			return nil, fmt.Errorf("key %s: the environment variable %s is not set", ref, name)
		case len(v) > maxKeySize:
			return nil, fmt.Errorf("key %s: %d bytes, more than the %d a key or policy may be", ref, len(v), maxKeySize)
		}
		return []byte(v), nil
	}
	f, err := os.OpenFile(ref, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("reading key: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("reading key: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("reading key %s: not a regular file (%s)", ref, fi.Mode().Type())
	}
	if fi.Size() > maxKeySize {
		return nil, fmt.Errorf("reading key %s: %d bytes, more than the %d a key or policy may be", ref, fi.Size(), maxKeySize)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxKeySize+1))
	if err != nil {
		return nil, fmt.Errorf("reading key %s: %w", ref, err)
	}
	if len(data) > maxKeySize {
		return nil, fmt.Errorf("reading key %s: more than %d bytes", ref, maxKeySize)
	}
	return data, nil
}

// PasswordFromEnv returns a function reading a cosign key's password from the environment variable
// name (DefaultPasswordEnv when empty). An unset variable is an error; an empty one is the empty
// password cosign generate-key-pair allows.
func PasswordFromEnv(name string) func() ([]byte, error) {
	if name == "" {
		name = DefaultPasswordEnv
	}
	return func() ([]byte, error) {
		v, ok := os.LookupEnv(name)
		if !ok {
			return nil, fmt.Errorf("the key is encrypted: set its password in the environment variable %s", name)
		}
		return []byte(v), nil
	}
}

// LoadPrivateKey reads a signing key from ref (a file or env://NAME): a cosign key (ENCRYPTED
// SIGSTORE PRIVATE KEY or ENCRYPTED COSIGN PRIVATE KEY, decrypted with password), or an
// unencrypted PEM key (PRIVATE KEY, EC PRIVATE KEY, RSA PRIVATE KEY): ECDSA, RSA or Ed25519.
func LoadPrivateKey(ref string, password func() ([]byte, error)) (*KeySigner, error) {
	load, err := PrepareKey(ref, password)
	if err != nil {
		return nil, err
	}
	return load()
}

// PrepareKey reads the key ref names and, for a cosign key, its password, and returns the function
// that decrypts and parses it: what can be missing fails at once, the decryption (scrypt, by design
// a tenth of a second or more) can run while other work does.
func PrepareKey(ref string, password func() ([]byte, error)) (func() (*KeySigner, error), error) {
	data, err := readKey(ref)
	if err != nil {
		return nil, err
	}
	block, _ := pem.Decode(data)
	if block != nil && strings.HasPrefix(block.Type, "ENCRYPTED ") && strings.HasSuffix(block.Type, " PRIVATE KEY") && block.Type != "ENCRYPTED PRIVATE KEY" {
		pass, err := password()
		if err != nil {
			return nil, fmt.Errorf("key %s: %w", ref, err)
		}
		password = func() ([]byte, error) { return pass, nil }
	}
	return func() (*KeySigner, error) {
		priv, err := parsePrivateKey(data, password)
		if err != nil {
			return nil, fmt.Errorf("key %s: %w", ref, err)
		}
		return newKeySigner(priv)
	}, nil
}

func parsePrivateKey(data []byte, password func() ([]byte, error)) (crypto.PrivateKey, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, errors.New("not a PEM key (no -----BEGIN ...----- block)")
	}
	var pf cryptoutils.PassFunc
	switch block.Type {
	case string(cryptoutils.EncryptedSigstorePrivateKeyPEMType), "ENCRYPTED COSIGN PRIVATE KEY":
		// go-securesystemslib decrypts only with its three fixed scrypt parameter sets (at most
		// 128 MiB): a key file cannot make decrypting it exhaust memory.
		pass, err := password()
		if err != nil {
			return nil, err
		}
		pf = func(bool) ([]byte, error) { return pass, nil }
	case string(cryptoutils.PrivateKeyPEMType), string(cryptoutils.ECPrivateKeyPEMType), string(cryptoutils.PKCS1PrivateKeyPEMType):
		if len(block.Headers) > 0 {
			return nil, errors.New("a legacy encrypted PEM key (Proc-Type header): import it into a cosign key with cosign import-key-pair")
		}
	case "ENCRYPTED PRIVATE KEY":
		return nil, errors.New("an encrypted PKCS #8 key: import it into a cosign key with cosign import-key-pair, or give an unencrypted PEM key")
	default:
		return nil, fmt.Errorf("a PEM block of type %q, not a private key", block.Type)
	}
	priv, err := cryptoutils.UnmarshalPEMToPrivateKey(data, pf)
	if err != nil {
		if pf != nil {
			return nil, errors.New("decrypting the cosign key failed: wrong password?")
		}
		return nil, errors.New("parsing the private key failed")
	}
	return priv, nil
}

// LoadPublicKey reads a PEM public key (PUBLIC KEY) from ref (a file or env://NAME): ECDSA, RSA or
// Ed25519, the keys containers/image and cosign verify with.
func LoadPublicKey(ref string) (crypto.PublicKey, error) {
	data, err := readKey(ref)
	if err != nil {
		return nil, err
	}
	pub, err := ParsePublicKey(data)
	if err != nil {
		return nil, fmt.Errorf("key %s: %w", ref, err)
	}
	return pub, nil
}

// ParsePublicKey parses a PEM public key.
func ParsePublicKey(data []byte) (crypto.PublicKey, error) {
	block, _ := pem.Decode(data)
	if block == nil {
		return nil, errors.New("not a PEM public key (no -----BEGIN PUBLIC KEY----- block)")
	}
	if block.Type != string(cryptoutils.PublicKeyPEMType) {
		return nil, fmt.Errorf("a PEM block of type %q, not a PUBLIC KEY", block.Type)
	}
	pub, err := cryptoutils.UnmarshalPEMToPublicKey(data)
	if err != nil {
		return nil, fmt.Errorf("parsing the public key: %w", err)
	}
	if err := checkKeyType(pub); err != nil {
		return nil, err
	}
	return pub, nil
}

func checkKeyType(k crypto.PublicKey) error {
	switch k := k.(type) {
	case *ecdsa.PublicKey, ed25519.PublicKey:
		return nil
	case *rsa.PublicKey:
		if k.N.BitLen() < 2048 {
			return fmt.Errorf("an RSA key of %d bits: use at least 2048", k.N.BitLen())
		}
		return nil
	}
	return fmt.Errorf("a %T key: use ECDSA, RSA or Ed25519", k)
}

// PublicKeyPEM encodes k as a PEM PUBLIC KEY block, as cosign writes cosign.pub.
func PublicKeyPEM(k crypto.PublicKey) ([]byte, error) { return cryptoutils.MarshalPublicKeyToPEM(k) }

// Fingerprint names a public key in messages: SHA256: and the base64 of the SHA-256 of its DER
// encoding (as ssh-keygen -l prints keys).
func Fingerprint(k crypto.PublicKey) string {
	der, err := cryptoutils.MarshalPublicKeyToDER(k)
	if err != nil {
		return "unknown key"
	}
	sum := sha256.Sum256(der)
	return "SHA256:" + base64.RawStdEncoding.EncodeToString(sum[:])
}

// isNotExist reports whether err says a file is missing.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
