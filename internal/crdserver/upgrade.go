package crdserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	apiextv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/validation"
)

const crdPath = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions"

// Upgrade is one CRD upgrade to play on the server: OLD is created, its status.storedVersions set,
// the existing objects created, then NEW replaces OLD.
type Upgrade struct {
	Old, New *apiextv1.CustomResourceDefinition
	// StoredVersions are set as OLD's status.storedVersions through the status subresource (nil: the
	// server's own, the storage version).
	StoredVersions []string
	// Objects are the existing objects, each at the version it is created with. Objects of another
	// group or kind are ignored; an object given at several versions is created once, at the first.
	Objects []*unstructured.Unstructured
}

// Outcome is what the server did. Each error is the server's message; empty means it accepted.
type Outcome struct {
	// OldError is set when the server refuses OLD itself (on create or on setting storedVersions); NEW is
	// then created instead, and NewError is set when the server refuses that too.
	OldError, NewError string
	// UpdateError is set when the server refuses the update to NEW.
	UpdateError string
	Objects     []ObjectOutcome
}

// ObjectOutcome is what happened to one existing object.
type ObjectOutcome struct {
	// Name is "namespace/name" or "name"; Version is the version it was created at: its own, or OLD's
	// storage version when OLD does not serve its own.
	Name, Version string
	// Given is the version of the form created: the object's first form, or the form given for OLD's
	// storage version when OLD does not serve the first form's version.
	Given string
	// CreateError is set when OLD refused the object (it cannot exist on a cluster with OLD).
	CreateError string
	// After the update: ReadError when GET at Version fails (Unreadable when the answer is 404),
	// UpdateError when a PUT of the object as read back fails.
	ReadError   string
	Unreadable  bool
	UpdateError string
	// Invalid maps each version NEW serves (and can convert to without a webhook) to the error of a
	// dry-run create of the object at that version; versions that accept it are absent.
	Invalid map[string]string
	// Checked lists the versions the dry-run create was tried at.
	Checked []string
}

// Run plays u on the server. The CRD names must be unique on this server (see Isolated). An error means
// the scenario could not be played (a transport failure, an unexpected answer); refusals are the outcome.
//
// The CRD is deleted afterwards (without waiting): the server recomputes its OpenAPI document over every
// CRD on each change, so CRDs left behind would make each later upgrade slower.
func (s *Server) Run(ctx context.Context, u Upgrade) (*Outcome, error) {
	defer s.Do(ctx, http.MethodDelete, crdPath+"/"+u.Old.Name, nil)
	out := &Outcome{}
	code, body, err := s.Do(ctx, http.MethodPost, crdPath, crdJSON(u.Old))
	if err != nil {
		return nil, err
	}
	if code != http.StatusCreated {
		// OLD cannot exist on a cluster: applying NEW creates it.
		out.OldError = statusMessage(code, body)
		code, body, err := s.Do(ctx, http.MethodPost, crdPath, crdJSON(u.New))
		if err != nil {
			return nil, err
		}
		if code != http.StatusCreated {
			out.NewError = statusMessage(code, body)
		}
		return out, nil
	}
	// A live CRD is established; before that the server still lets scope and names change.
	if err := s.waitEstablished(ctx, u.Old.Name); err != nil {
		return nil, err
	}
	if u.StoredVersions != nil {
		if msg, err := s.SetStoredVersions(ctx, u.Old.Name, u.StoredVersions); err != nil || msg != "" {
			out.OldError = msg
			return out, err
		}
	}
	created, forms := s.createObjects(ctx, u, out)
	if out.UpdateError, err = s.update(ctx, u.New); err != nil || out.UpdateError != "" || len(created) == 0 {
		return out, err
	}
	if err := s.waitServing(ctx, u.New); err != nil {
		return nil, err
	}
	for i := range out.Objects {
		if err := s.afterUpdate(ctx, u.New, created[i], forms[i], &out.Objects[i]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// update replaces the CRD with nc (PUT with the live resourceVersion, retried on 409 Conflict) and
// returns the server's refusal, if any.
func (s *Server) update(ctx context.Context, nc *apiextv1.CustomResourceDefinition) (string, error) {
	for attempt := 0; ; attempt++ {
		cur, err := s.getCRD(ctx, nc.Name)
		if err != nil {
			return "", err
		}
		nc = nc.DeepCopy()
		nc.ResourceVersion = cur.ResourceVersion
		code, body, err := s.Do(ctx, http.MethodPut, crdPath+"/"+nc.Name, crdJSON(nc))
		switch {
		case err != nil:
			return "", err
		case code == http.StatusConflict && attempt < 10:
			continue
		case code != http.StatusOK:
			return statusMessage(code, body), nil
		}
		return "", nil
	}
}

// createObjects creates the existing objects under OLD and returns them as created (nil when refused)
// and, for each, the forms given per version. An object is created in its first form, at its version;
// when OLD does not serve that version, it was created before at OLD's storage version: in the form
// given for that version if there is one (the same object at another version), else in its first form.
func (s *Server) createObjects(ctx context.Context, u Upgrade, out *Outcome) ([]*unstructured.Unstructured, []map[string]*unstructured.Unstructured) {
	var created []*unstructured.Unstructured
	var forms []map[string]*unstructured.Unstructured
	var firsts []*unstructured.Unstructured
	index := map[string]int{}
	for _, obj := range u.Objects {
		gvk := obj.GroupVersionKind()
		if gvk.Group != u.Old.Spec.Group || gvk.Kind != u.Old.Spec.Names.Kind {
			continue
		}
		obj = clean(obj, u.Old.Spec.Scope)
		key := objectName(obj)
		if i, ok := index[key]; ok {
			forms[i][gvk.Version] = obj
			continue
		}
		index[key] = len(forms)
		forms = append(forms, map[string]*unstructured.Unstructured{gvk.Version: obj})
		firsts = append(firsts, obj)
	}
	for i, obj := range firsts {
		version := obj.GroupVersionKind().Version
		oo := ObjectOutcome{Name: objectName(obj), Version: version, Given: version}
		if v := findVersion(u.Old, version); v == nil || !v.Served {
			// OLD does not serve the object's version: it was created before, at the storage version.
			oo.Version = storageVersion(u.Old)
			if form, ok := forms[i][oo.Version]; ok {
				obj, oo.Given = form, oo.Version
			}
		}
		obj = obj.DeepCopy()
		obj.SetAPIVersion(u.Old.Spec.Group + "/" + oo.Version)
		data, _ := json.Marshal(obj.Object)
		code, body, err := s.Do(ctx, http.MethodPost, resourcePath(u.Old, oo.Version, obj.GetNamespace(), ""), data)
		switch {
		case err != nil:
			oo.CreateError = err.Error()
		case code != http.StatusCreated:
			oo.CreateError = statusMessage(code, body)
		}
		if oo.CreateError != "" {
			obj = nil
		}
		created = append(created, obj)
		out.Objects = append(out.Objects, oo)
	}
	return created, forms
}

// afterUpdate reads the object back at its version and PUTs it unchanged, and dry-run creates it
// (renamed) at each version NEW serves, in the form given for that version if any.
func (s *Server) afterUpdate(ctx context.Context, nc *apiextv1.CustomResourceDefinition, obj *unstructured.Unstructured,
	forms map[string]*unstructured.Unstructured, oo *ObjectOutcome) error {
	if obj == nil {
		return s.dryRuns(ctx, nc, forms, oo)
	}
	path := resourcePath(nc, oo.Version, obj.GetNamespace(), obj.GetName())
	code, body, err := s.Do(ctx, http.MethodGet, path, nil)
	if err != nil {
		return err
	}
	if code != http.StatusOK {
		oo.ReadError, oo.Unreadable = statusMessage(code, body), code == http.StatusNotFound
	} else {
		code, body, err := s.Do(ctx, http.MethodPut, path, body)
		if err != nil {
			return err
		}
		if code != http.StatusOK {
			oo.UpdateError = statusMessage(code, body)
		}
	}
	return s.dryRuns(ctx, nc, forms, oo)
}

// dryRuns dry-run creates the object (renamed) at each version NEW serves and can convert to without
// a webhook, in the form given for that version, else in its first form.
func (s *Server) dryRuns(ctx context.Context, nc *apiextv1.CustomResourceDefinition, forms map[string]*unstructured.Unstructured, oo *ObjectOutcome) error {
	for _, v := range nc.Spec.Versions {
		if !v.Served || (v.Name != storageVersion(nc) && nc.Spec.Conversion != nil && nc.Spec.Conversion.Strategy == apiextv1.WebhookConverter) {
			continue
		}
		obj := forms[v.Name]
		if obj == nil {
			obj = forms[oo.Given]
		}
		dry := obj.DeepCopy()
		dry.SetAPIVersion(nc.Spec.Group + "/" + v.Name)
		dry.SetName(obj.GetName() + "-dry-run")
		data, _ := json.Marshal(dry.Object)
		code, body, err := s.Do(ctx, http.MethodPost, resourcePath(nc, v.Name, obj.GetNamespace(), "")+"?dryRun=All", data)
		if err != nil {
			return err
		}
		oo.Checked = append(oo.Checked, v.Name)
		if code != http.StatusCreated {
			if oo.Invalid == nil {
				oo.Invalid = map[string]string{}
			}
			oo.Invalid[v.Name] = statusMessage(code, body)
		}
	}
	return nil
}

// SetStoredVersions sets status.storedVersions of the live CRD name through the status subresource,
// retrying while the server's own controllers update the status at the same time (409 Conflict), and
// returns the server's refusal, if any. Run calls it before creating the existing objects; with
// CreateObjects it prepares a CRD that something else (an OLM) installed and upgrades.
func (s *Server) SetStoredVersions(ctx context.Context, name string, stored []string) (string, error) {
	for attempt := 0; ; attempt++ {
		cur, err := s.getCRD(ctx, name)
		if err != nil {
			return "", err
		}
		cur.Status.StoredVersions = stored
		data, _ := json.Marshal(cur)
		code, body, err := s.Do(ctx, http.MethodPut, crdPath+"/"+name+"/status", data)
		switch {
		case err != nil:
			return "", err
		case code == http.StatusConflict && attempt < 10:
			continue
		case code != http.StatusOK:
			return "setting status.storedVersions: " + statusMessage(code, body), nil
		}
		return "", nil
	}
}

func (s *Server) getCRD(ctx context.Context, name string) (*apiextv1.CustomResourceDefinition, error) {
	code, body, err := s.Do(ctx, http.MethodGet, crdPath+"/"+name, nil)
	if err != nil {
		return nil, err
	}
	if code != http.StatusOK {
		return nil, fmt.Errorf("reading CRD %s: %s", name, statusMessage(code, body))
	}
	c := &apiextv1.CustomResourceDefinition{}
	if err := json.Unmarshal(body, c); err != nil {
		return nil, fmt.Errorf("decoding CRD %s: %w", name, err)
	}
	return c, nil
}

// waitEstablished waits until the CRD's Established condition is true; a timeout names the conditions.
func (s *Server) waitEstablished(ctx context.Context, name string) error {
	var conds []apiextv1.CustomResourceDefinitionCondition
	err := poll(ctx, 90*time.Second, "CRD "+name+" established", func() (bool, error) {
		c, err := s.getCRD(ctx, name)
		if err != nil {
			return false, err
		}
		conds = c.Status.Conditions
		for _, cond := range c.Status.Conditions {
			if cond.Type == apiextv1.Established && cond.Status == apiextv1.ConditionTrue {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		var why []string
		for _, c := range conds {
			why = append(why, fmt.Sprintf("%s=%s (%s: %s)", c.Type, c.Status, c.Reason, c.Message))
		}
		return fmt.Errorf("%w; conditions: %s", err, strings.Join(why, ", "))
	}
	return nil
}

// waitServing waits until discovery lists exactly the versions c serves, then a little longer: the
// server reloads a CRD's handlers from the same informer shortly after an update.
func (s *Server) waitServing(ctx context.Context, c *apiextv1.CustomResourceDefinition) error {
	var want []string
	for _, v := range c.Spec.Versions {
		if v.Served {
			want = append(want, v.Name)
		}
	}
	slices.Sort(want)
	err := poll(ctx, 90*time.Second, "discovery of "+c.Name, func() (bool, error) {
		code, body, err := s.Do(ctx, http.MethodGet, "/apis/"+c.Spec.Group, nil)
		if err != nil {
			return false, err
		}
		var g struct {
			Versions []struct{ Version string } `json:"versions"`
		}
		if code == http.StatusOK {
			if err := json.Unmarshal(body, &g); err != nil {
				return false, fmt.Errorf("decoding discovery of %s: %w", c.Spec.Group, err)
			}
		}
		var got []string
		for _, v := range g.Versions {
			got = append(got, v.Version)
		}
		slices.Sort(got)
		return slices.Equal(want, got), nil
	})
	if err != nil {
		return err
	}
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-time.After(300 * time.Millisecond):
		return nil
	}
}

func poll(ctx context.Context, timeout time.Duration, what string, done func() (bool, error)) error {
	deadline := time.Now().Add(timeout)
	for {
		ok, err := done()
		if err != nil || ok {
			return err
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("waiting for %s: timed out after %v", what, timeout)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// crdJSON encodes a CRD for create or update, without status.
func crdJSON(c *apiextv1.CustomResourceDefinition) []byte {
	c = c.DeepCopy()
	c.Status = apiextv1.CustomResourceDefinitionStatus{}
	c.APIVersion, c.Kind = "apiextensions.k8s.io/v1", "CustomResourceDefinition"
	data, _ := json.Marshal(c)
	return data
}

// clean returns obj ready to create: server-set metadata dropped, a namespace only for namespaced kinds
// (default when the file has none or a template placeholder).
func clean(obj *unstructured.Unstructured, scope apiextv1.ResourceScope) *unstructured.Unstructured {
	obj = obj.DeepCopy()
	for _, f := range []string{"resourceVersion", "uid", "creationTimestamp", "generation", "managedFields", "selfLink"} {
		unstructured.RemoveNestedField(obj.Object, "metadata", f)
	}
	switch ns := obj.GetNamespace(); {
	case scope == apiextv1.ClusterScoped:
		obj.SetNamespace("")
	case ns == "" || len(validation.IsDNS1123Label(ns)) > 0:
		obj.SetNamespace("default")
	}
	return obj
}

func resourcePath(c *apiextv1.CustomResourceDefinition, version, namespace, name string) string {
	p := "/apis/" + c.Spec.Group + "/" + version
	if namespace != "" {
		p += "/namespaces/" + url.PathEscape(namespace)
	}
	p += "/" + c.Spec.Names.Plural
	if name != "" {
		p += "/" + url.PathEscape(name)
	}
	return p
}

func objectName(obj *unstructured.Unstructured) string {
	if ns := obj.GetNamespace(); ns != "" {
		return ns + "/" + obj.GetName()
	}
	return obj.GetName()
}

func findVersion(c *apiextv1.CustomResourceDefinition, name string) *apiextv1.CustomResourceDefinitionVersion {
	for i := range c.Spec.Versions {
		if c.Spec.Versions[i].Name == name {
			return &c.Spec.Versions[i]
		}
	}
	return nil
}

func storageVersion(c *apiextv1.CustomResourceDefinition) string {
	for _, v := range c.Spec.Versions {
		if v.Storage {
			return v.Name
		}
	}
	return ""
}

// statusMessage returns the message of a metav1.Status answer, or the status code and body.
func statusMessage(code int, body []byte) string {
	var st struct{ Message string }
	if json.Unmarshal(body, &st) == nil && st.Message != "" {
		return fmt.Sprintf("%d: %s", code, st.Message)
	}
	return fmt.Sprintf("%d: %s", code, strings.TrimSpace(string(body)))
}

// CreateObjects creates u's existing objects of u.Old, which must be live on the server, as Run does
// (at their own version, or at OLD's storage version when OLD does not serve it; in namespace default
// when they name none) and returns what happened to each: CreateError when the server refused it.
func (s *Server) CreateObjects(ctx context.Context, u Upgrade) []ObjectOutcome {
	out := &Outcome{}
	s.createObjects(ctx, u, out)
	return out.Objects
}
