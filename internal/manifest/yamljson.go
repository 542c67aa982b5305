package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"
	utiljson "k8s.io/apimachinery/pkg/util/json"
)

// The YAML decoder is go.yaml.in/yaml/v2, the parser sigs.k8s.io/yaml uses, so values read as
// they do in kubectl, kustomize and operator-sdk (YAML 1.1: yes/no are booleans). Where
// sigs.k8s.io/yaml keeps one of two keys of different YAML types that read as the same JSON key
// (8 and 00008, true and "true") at random, this is an error, so that the same file always decodes
// the same way.

// errSlowPath marks a YAML value the direct conversion leaves to the JSON round trip (invalid
// UTF-8, NaN or infinite numbers, types it does not know), so that both give the same result.
var errSlowPath = errors.New("value needs the JSON round trip")

// yamlToObject decodes one YAML document into the value yamlToJSON followed by utiljson.Unmarshal
// gives (string-keyed maps, int64 for integers, float64 for other numbers), without encoding and
// parsing the JSON: the round trip cost as much as the YAML parse itself. Values the direct
// conversion cannot reproduce exactly take the round trip. Documents in fastYAML's subset skip
// yaml.v2. fastYAML gives up on any anchor or alias, so only what it leaves to yaml.v2 can expand
// aliases: the bound of maxAliasNodes (checkAliases) is checked there.
func yamlToObject(raw []byte, maxAliasNodes int) (interface{}, error) {
	if m, ok := fastYAML(raw); ok {
		return m, nil
	}
	if err := checkAliases(raw, maxAliasNodes); err != nil {
		return nil, err
	}
	return yamlv2ToObject(raw)
}

// yamlv2ToObject is yamlToObject through yaml.v2.
func yamlv2ToObject(raw []byte) (interface{}, error) {
	var obj interface{}
	if err := yamlv2.Unmarshal(raw, &obj); err != nil {
		return nil, err
	}
	v, err := direct(obj)
	if !errors.Is(err, errSlowPath) {
		return v, err
	}
	return viaJSON(obj)
}

// viaJSON converts a yaml.v2 value the way sigs.k8s.io/yaml does: to JSON text, then back with
// utiljson (int64 integers). It is the slow path for what direct cannot reproduce.
func viaJSON(obj interface{}) (interface{}, error) {
	j, err := jsonable(obj)
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(j)
	if err != nil {
		return nil, err
	}
	var out interface{}
	return out, utiljson.Unmarshal(data, &out)
}

// direct converts a yaml.v2 value as jsonable + json.Marshal + utiljson.Unmarshal would. Values
// that stay as they are are returned as the same interface value (no new boxing).
func direct(v interface{}) (interface{}, error) {
	switch t := v.(type) {
	case nil, bool, int64:
		return v, nil
	case string:
		if !utf8.ValidString(t) {
			return nil, errSlowPath // json.Marshal replaces each invalid byte with U+FFFD
		}
		return v, nil
	case int:
		return int64(t), nil
	case uint64:
		if t <= math.MaxInt64 {
			return int64(t), nil
		}
		return float64(t), nil
	case float64:
		if math.IsNaN(t) || math.IsInf(t, 0) {
			return nil, errSlowPath // json.Marshal refuses them, with its own message
		}
		// json.Marshal writes an integral float below 1e21 as its shortest digits padded with
		// zeros and no fraction; utiljson then reads that text as int64 when it fits (rare: YAML
		// integers arrive as int, so only "1.0" and the like get here).
		if t == math.Trunc(t) && math.Abs(t) < 1e21 {
			if i, err := strconv.ParseInt(strconv.FormatFloat(t, 'f', -1, 64), 10, 64); err == nil {
				return i, nil
			}
		}
		return v, nil
	case []interface{}:
		// Converted in place: the slice is yaml.v2's. On an error the element is left as it was,
		// since the JSON round trip then converts the same value again (an element overwritten
		// with nil lost a mapping whose keys collide; found by FuzzDecodeAgreesWithReference).
		for i, e := range t {
			c, err := direct(e)
			if err != nil {
				return nil, err
			}
			t[i] = c
		}
		return v, nil
	case map[interface{}]interface{}:
		return directMap(t)
	default:
		return nil, errSlowPath
	}
}

func directMap(v map[interface{}]interface{}) (interface{}, error) {
	out := make(map[string]interface{}, len(v))
	for k, val := range v {
		ks, err := keyString(k, val)
		if err != nil || !utf8.ValidString(ks) {
			return nil, errSlowPath // jsonable reports the error of the smallest key
		}
		if _, dup := out[ks]; dup {
			return nil, errSlowPath
		}
		if out[ks], err = direct(val); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// KeyCollisionError is a YAML mapping with two keys that read as the same JSON key (8 and
// 00008, true and "true"): sigs.k8s.io/yaml keeps one of them at random, so such a file would
// mean different things on different runs; every reader of opack refuses it.
type KeyCollisionError struct{ Key string }

func (e *KeyCollisionError) Error() string {
	return fmt.Sprintf("the mapping has two keys that both read as %q in JSON (for example 8 and 08, or true and \"true\"); keep one, or quote the keys", e.Key)
}

// jsonable turns the maps of a YAML value into JSON objects with string keys.
func jsonable(v interface{}) (interface{}, error) {
	switch v := v.(type) {
	case map[interface{}]interface{}:
		out := make(map[string]interface{}, len(v))
		var errKey string
		var firstErr error // the error of the smallest key, so the message does not depend on map order
		for k, val := range v {
			ks, err := keyString(k, val)
			if err == nil {
				if _, dup := out[ks]; dup {
					err = &KeyCollisionError{Key: ks}
				}
			}
			if err == nil {
				out[ks], err = jsonable(val)
			}
			if err != nil && (firstErr == nil || ks < errKey) {
				errKey, firstErr = ks, err
			}
		}
		return out, firstErr
	case []interface{}:
		out := make([]interface{}, len(v))
		for i, e := range v {
			var err error
			if out[i], err = jsonable(e); err != nil {
				return nil, err
			}
		}
		return out, nil
	default:
		return v, nil
	}
}

// keyString converts a YAML mapping key as sigs.k8s.io/yaml does.
func keyString(k, v interface{}) (string, error) {
	switch k := k.(type) {
	case string:
		return k, nil
	case int:
		return strconv.Itoa(k), nil
	case int64:
		return strconv.FormatInt(k, 10), nil
	case float64:
		switch s := strconv.FormatFloat(k, 'g', -1, 32); s {
		case "+Inf":
			return ".inf", nil
		case "-Inf":
			return "-.inf", nil
		case "NaN":
			return ".nan", nil
		default:
			return s, nil
		}
	case bool:
		return strconv.FormatBool(k), nil
	default:
		return fmt.Sprint(k), fmt.Errorf("unsupported map key of type: %s, key: %+#v, value: %+#v", reflect.TypeOf(k), k, v)
	}
}
