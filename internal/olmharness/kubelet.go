package olmharness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/opack/opack/internal/olmtest"
)

// Kubelet plays a cluster's only node and the workload controllers of kube-controller-manager, for what
// OLM creates and nothing more:
//   - a Pod (OLM v0's catalog registry pod): its init containers run to completion and its containers
//     start, each chrooted in its image's root filesystem with the pod's emptyDir volumes copied in and
//     out around each init container (a kubelet mounts them), as the pod's user, in a network namespace
//     of the pod's own; the pod is reported Running and Ready once its containers' ports answer (the
//     readiness probe); a deleted pod's processes are killed.
//   - a Job (OLM v0's bundle unpack Job): its pod template runs as above, in the host's network namespace
//     with the in-cluster configuration of its service account (a token from the TokenRequest API, the
//     cluster CA, KUBERNETES_SERVICE_HOST/PORT: a pod reaches the API server through the kubernetes
//     Service, here on 127.0.0.1); the Job is reported Complete or Failed. No Pod object is made for it.
//   - a Deployment (the operator's): reported available with every replica updated and ready; the
//     operator's own image is never run.
//   - a Namespace: its "default" ServiceAccount (the service account controller).
//
// Images are the real programs: images in the registry are copied with skopeo and unpacked; OLM's opm
// image is opm v1.73.0 (hack/tools/opm), its util image holds copy-content and cpb built from
// operator-lifecycle-manager v0.46.0 (hack/tools/olm) and the host's cp with its libraries.
type Kubelet struct {
	c      *Cluster
	t      testing.TB
	images map[string]func(t testing.TB) string // image reference → a fresh root filesystem
	mu     sync.Mutex
	pods   map[string]*podRun // by UID
	jobs   map[string]bool    // handled Job UIDs
	deps   map[string]int64   // Deployment UID → generation reported available
	// namespaces holds the namespaces whose default ServiceAccount exists.
	namespaces map[string]bool
	events     []string
	// roots are the root filesystems made for each pod or Job's containers ("namespace/name"): a Job's
	// are removed once it finished, as a node removes exited containers.
	roots map[string][]string
	// jobSlots bounds the Jobs running at once, as a node's capacity does: each holds a few hundred MB of
	// root filesystems (OLM's opm and util images) while it runs.
	jobSlots chan struct{}
	// policy, when set, is the image policy the node enforces on the images it pulls from registries.
	policy *olmtest.NodePolicy
}

// EnforceImagePolicy makes the node pull registry images as a node enforcing p does (CRI-O with
// /etc/containers/policy.json and registries.d): an image p refuses fails its pod or Job, and
// Events records each pull verified or refused.
func (k *Kubelet) EnforceImagePolicy(p olmtest.NodePolicy) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.policy = &p
}

// maxJobs is how many Jobs the kubelet runs at once; the others wait, reported as not yet started.
const maxJobs = 8

// podRun is a pod the kubelet runs.
type podRun struct {
	namespace, name string
	labels          map[string]string
	ns              *olmtest.NetNS
	procs           []*Process
}

// StartKubelet starts playing the node on c until t ends. images maps the images of OLM's own pods (its
// util and opm images) to functions making their root filesystems; any other image is pulled from its
// registry (plain HTTP allowed).
func StartKubelet(t testing.TB, c *Cluster, images map[string]func(t testing.TB) string) *Kubelet {
	t.Helper()
	k := &Kubelet{c: c, t: t, images: images, pods: map[string]*podRun{}, jobs: map[string]bool{}, deps: map[string]int64{},
		namespaces: map[string]bool{}, roots: map[string][]string{}, jobSlots: make(chan struct{}, maxJobs)}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			k.sync(ctx)
			select {
			case <-ctx.Done():
			case <-time.After(300 * time.Millisecond):
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return k
}

// Events returns what the kubelet did, in order, for the test log.
func (k *Kubelet) Events() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	return append([]string(nil), k.events...)
}

func (k *Kubelet) logf(format string, args ...any) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.events = append(k.events, time.Now().UTC().Format("15:04:05.000")+" "+fmt.Sprintf(format, args...))
}

func (k *Kubelet) sync(ctx context.Context) {
	// kube-controller-manager's service account controller: a "default" ServiceAccount in every namespace
	// (OLM v0 before v0.4x runs its bundle unpack Jobs as it).
	var nss corev1.NamespaceList
	if _, err := k.c.GetJSON(ctx, "/api/v1/namespaces", &nss); err == nil {
		for _, ns := range nss.Items {
			if k.namespaces[ns.Name] || ns.DeletionTimestamp != nil {
				continue
			}
			code, body, err := k.c.Do(ctx, http.MethodPost, "/api/v1/namespaces/"+ns.Name+"/serviceaccounts",
				[]byte(`{"apiVersion":"v1","kind":"ServiceAccount","metadata":{"name":"default"}}`))
			if err == nil && (code == http.StatusCreated || code == http.StatusConflict) {
				k.namespaces[ns.Name] = true
			} else {
				k.logf("creating the default service account of %s: %v %d %s", ns.Name, err, code, body)
			}
		}
	}
	var pods corev1.PodList
	if _, err := k.c.GetJSON(ctx, "/api/v1/pods", &pods); err == nil {
		k.syncPods(ctx, pods.Items)
	}
	var jobs batchv1.JobList
	if _, err := k.c.GetJSON(ctx, "/apis/batch/v1/jobs", &jobs); err == nil {
		for i := range jobs.Items {
			j := &jobs.Items[i]
			if !k.jobs[string(j.UID)] && j.Status.CompletionTime == nil && j.DeletionTimestamp == nil {
				k.jobs[string(j.UID)] = true
				go k.runJob(ctx, j)
			}
		}
	}
	var deps appsv1.DeploymentList
	if _, err := k.c.GetJSON(ctx, "/apis/apps/v1/deployments", &deps); err == nil {
		for i := range deps.Items {
			k.syncDeployment(ctx, &deps.Items[i])
		}
	}
}

func (k *Kubelet) syncPods(ctx context.Context, pods []corev1.Pod) {
	live := map[string]bool{}
	for i := range pods {
		p := &pods[i]
		uid := string(p.UID)
		live[uid] = p.DeletionTimestamp == nil
		k.mu.Lock()
		_, running := k.pods[uid]
		if !running && p.DeletionTimestamp == nil && (p.Status.Phase == "" || p.Status.Phase == corev1.PodPending) {
			k.pods[uid] = &podRun{namespace: p.Namespace, name: p.Name, labels: p.Labels}
			k.mu.Unlock()
			go k.runPod(ctx, p)
			continue
		}
		k.mu.Unlock()
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	for uid, r := range k.pods {
		if !live[uid] {
			for _, p := range r.procs {
				p.Stop()
			}
			delete(k.pods, uid)
			k.events = append(k.events, time.Now().UTC().Format("15:04:05.000")+" pod "+r.namespace+"/"+r.name+" deleted: stopped")
		}
	}
}

// runPod runs a pod's containers and reports its status.
func (k *Kubelet) runPod(ctx context.Context, p *corev1.Pod) {
	k.logf("pod %s/%s: starting", p.Namespace, p.Name)
	ns := olmtest.NewNetNS(k.t)
	k.mu.Lock()
	if r := k.pods[string(p.UID)]; r != nil {
		r.ns = ns
	}
	k.mu.Unlock()
	procs, initStatuses, err := k.runContainers(ctx, p.Namespace, p.Name, &p.Spec, ns, nil)
	k.mu.Lock()
	if r := k.pods[string(p.UID)]; r != nil {
		r.procs = procs
	}
	k.mu.Unlock()
	if err != nil {
		k.logf("pod %s/%s: %v", p.Namespace, p.Name, err)
		k.patchPodStatus(ctx, p, corev1.PodFailed, initStatuses, false)
		return
	}
	// The readiness probe: every container port answers a TCP connection inside the pod.
	for ctx.Err() == nil {
		ready := true
		for _, c := range p.Spec.Containers {
			for _, port := range c.Ports {
				conn, err := ns.Dial(ctx, fmt.Sprintf("127.0.0.1:%d", port.ContainerPort))
				if err != nil {
					ready = false
					continue
				}
				conn.Close()
			}
		}
		if ready {
			break
		}
		for _, pr := range procs {
			if !pr.Running() {
				k.logf("pod %s/%s: container %s exited: %s", p.Namespace, p.Name, pr.Name, pr.Tail(2048))
				k.patchPodStatus(ctx, p, corev1.PodFailed, initStatuses, false)
				return
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	k.logf("pod %s/%s: ready", p.Namespace, p.Name)
	k.patchPodStatus(ctx, p, corev1.PodRunning, initStatuses, true)
}

// runContainers runs the init containers of spec to completion, then starts its containers (or, with
// wait, runs them to completion too), in ns when not nil. env is added to every container's environment.
func (k *Kubelet) runContainers(ctx context.Context, namespace, pod string, spec *corev1.PodSpec, ns *olmtest.NetNS, files map[string][]byte) ([]*Process, []corev1.ContainerStatus, error) {
	volumes := map[string]string{}
	for _, v := range spec.Volumes {
		dir := filepath.Join(k.c.Dir, "pods", namespace, pod, "volumes", v.Name)
		if err := mkEmptyDir(dir); err != nil {
			return nil, nil, err
		}
		volumes[v.Name] = dir
		switch {
		case v.EmptyDir != nil:
		case v.Projected != nil:
			// The service account volume admission adds (kube-api-access-*): token, ca.crt, namespace.
			sa, err := k.serviceAccountFiles(ctx, namespace, spec.ServiceAccountName)
			if err != nil {
				return nil, nil, err
			}
			for name, data := range sa {
				if err := os.WriteFile(filepath.Join(dir, filepath.Base(name)), data, 0o644); err != nil {
					return nil, nil, err
				}
			}
		default:
			return nil, nil, fmt.Errorf("volume %s: only emptyDir and the service account's projected volumes are played", v.Name)
		}
	}
	var statuses []corev1.ContainerStatus
	for _, c := range spec.InitContainers {
		p, root, err := k.startContainer(namespace, pod, spec, &c, volumes, ns, files)
		if err != nil {
			return nil, statuses, fmt.Errorf("init container %s: %w", c.Name, err)
		}
		<-p.done
		code := p.cmd.ProcessState.ExitCode()
		statuses = append(statuses, terminated(c, int32(code)))
		if code != 0 {
			return nil, statuses, fmt.Errorf("init container %s exited %d: %s", c.Name, code, p.Tail(2048))
		}
		if err := copyVolumesOut(root, &c, volumes); err != nil {
			return nil, statuses, err
		}
	}
	var procs []*Process
	for _, c := range spec.Containers {
		p, _, err := k.startContainer(namespace, pod, spec, &c, volumes, ns, files)
		if err != nil {
			return procs, statuses, fmt.Errorf("container %s: %w", c.Name, err)
		}
		procs = append(procs, p)
	}
	return procs, statuses, nil
}

// startContainer makes the container's root filesystem from its image, copies the volumes in and starts
// its command chrooted there.
func (k *Kubelet) startContainer(namespace, pod string, spec *corev1.PodSpec, c *corev1.Container, volumes map[string]string, ns *olmtest.NetNS, files map[string][]byte) (*Process, string, error) {
	root, cfg, err := k.imageRoot(c.Image)
	if err != nil {
		return nil, "", err
	}
	k.mu.Lock()
	k.roots[namespace+"/"+pod] = append(k.roots[namespace+"/"+pod], root)
	k.mu.Unlock()
	for _, m := range c.VolumeMounts {
		src, ok := volumes[m.Name]
		if !ok {
			return nil, "", fmt.Errorf("volume mount %s: no such volume", m.Name)
		}
		dst := filepath.Join(root, m.MountPath)
		if err := os.RemoveAll(dst); err != nil {
			return nil, "", err
		}
		if err := copyTree(src, dst); err != nil {
			return nil, "", fmt.Errorf("mounting volume %s at %s: %w", m.Name, m.MountPath, err)
		}
	}
	if err := kubeletFiles(root, files); err != nil {
		return nil, "", err
	}
	argv := containerArgv(c, cfg)
	if len(argv) == 0 {
		return nil, "", fmt.Errorf("image %s has no command", c.Image)
	}
	uid := int64(0)
	if spec.SecurityContext != nil && spec.SecurityContext.RunAsUser != nil {
		uid = *spec.SecurityContext.RunAsUser
	}
	if c.SecurityContext != nil && c.SecurityContext.RunAsUser != nil {
		uid = *c.SecurityContext.RunAsUser
	}
	env := []string{"PATH=/usr/local/bin:/usr/bin:/bin", "HOME=/"}
	env = append(env, cfg.Env...)
	for _, e := range c.Env {
		env = append(env, e.Name+"="+e.Value)
	}
	// The kubernetes Service's variables, as kubelet sets them in every container.
	env = append(env, "KUBERNETES_SERVICE_HOST=127.0.0.1", "KUBERNETES_SERVICE_PORT="+strings.TrimPrefix(k.c.URL, "https://127.0.0.1:"))
	name := "pod-" + namespace + "-" + pod + "-" + c.Name
	var p *Process
	start := func() {
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Dir = "/"
		if cfg.WorkingDir != "" {
			cmd.Dir = cfg.WorkingDir
		}
		cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: root, Credential: &syscall.Credential{Uid: uint32(uid), Gid: 0}, Setpgid: true}
		cmd.Env = env
		p, err = k.c.start(name, cmd, nil)
	}
	// Cluster.start retries ETXTBSY: a program copied into the root (a volume, e.g. OLM's /util/cpb)
	// while another goroutine forked (golang/go#22315).
	if ns != nil {
		ns.Run(start)
	} else {
		start()
	}
	if err != nil {
		return nil, "", err
	}
	return p, root, nil
}

func containerArgv(c *corev1.Container, cfg imageConfig) []string {
	// Kubernetes: command replaces the entrypoint, args replace the image's cmd.
	cmd, args := cfg.Entrypoint, cfg.Cmd
	if len(c.Command) > 0 {
		cmd, args = c.Command, nil
	}
	if len(c.Args) > 0 {
		args = c.Args
	}
	argv := append(append([]string{}, cmd...), args...)
	if len(argv) > 0 && !strings.HasPrefix(argv[0], "/") {
		argv[0] = "/bin/" + argv[0] // resolved on the image's PATH, which has /bin
	}
	return argv
}

// copyVolumesOut copies what a finished init container left in its volume mounts back to the volumes.
func copyVolumesOut(root string, c *corev1.Container, volumes map[string]string) error {
	for _, m := range c.VolumeMounts {
		if err := os.RemoveAll(volumes[m.Name]); err != nil {
			return err
		}
		if err := copyTree(filepath.Join(root, m.MountPath), volumes[m.Name]); err != nil {
			return fmt.Errorf("unmounting volume %s: %w", m.Name, err)
		}
	}
	return nil
}

func terminated(c corev1.Container, code int32) corev1.ContainerStatus {
	now := metav1.Now()
	return corev1.ContainerStatus{Name: c.Name, Image: c.Image, ImageID: c.Image,
		State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code, StartedAt: now, FinishedAt: now,
			Reason: map[bool]string{true: "Completed", false: "Error"}[code == 0]}}}
}

// patchPodStatus reports the pod's phase and readiness as kubelet does.
func (k *Kubelet) patchPodStatus(ctx context.Context, p *corev1.Pod, phase corev1.PodPhase, inits []corev1.ContainerStatus, ready bool) {
	now := metav1.Now()
	cond := func(t corev1.PodConditionType, ok bool) corev1.PodCondition {
		s := corev1.ConditionFalse
		if ok {
			s = corev1.ConditionTrue
		}
		return corev1.PodCondition{Type: t, Status: s, LastTransitionTime: now}
	}
	st := corev1.PodStatus{Phase: phase, PodIP: "10.244.0.2", PodIPs: []corev1.PodIP{{IP: "10.244.0.2"}}, HostIP: "127.0.0.1", StartTime: &now,
		InitContainerStatuses: inits,
		Conditions: []corev1.PodCondition{cond(corev1.PodScheduled, true), cond(corev1.PodInitialized, phase != corev1.PodFailed),
			cond(corev1.ContainersReady, ready), cond(corev1.PodReady, ready)}}
	for _, c := range p.Spec.Containers {
		cs := corev1.ContainerStatus{Name: c.Name, Image: c.Image, ImageID: c.Image, Ready: ready, Started: &ready}
		if phase == corev1.PodRunning {
			cs.State.Running = &corev1.ContainerStateRunning{StartedAt: now}
		} else {
			cs.State.Terminated = &corev1.ContainerStateTerminated{ExitCode: 1, Reason: "Error"}
		}
		st.ContainerStatuses = append(st.ContainerStatuses, cs)
	}
	k.patchStatus(ctx, fmt.Sprintf("/api/v1/namespaces/%s/pods/%s/status", p.Namespace, p.Name), st)
}

// patchStatus merge-patches the status subresource at path.
func (k *Kubelet) patchStatus(ctx context.Context, path string, status any) {
	body, err := json.Marshal(map[string]any{"status": status})
	if err != nil {
		k.logf("encoding the status for %s: %v", path, err)
		return
	}
	if err := k.c.Patch(ctx, path, body); err != nil {
		k.logf("%v", err)
	}
}

// Patch sends a JSON merge patch.
func (c *Cluster) Patch(ctx context.Context, path string, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPatch, c.URL+path, bytes.NewReader(body))
	if err != nil {
		return fmt.Errorf("building PATCH %s: %w", path, err)
	}
	req.Header.Set("Content-Type", "application/merge-patch+json")
	code, data, err := c.Server.DoRequest(req)
	if err != nil {
		return err
	}
	if code != http.StatusOK {
		return fmt.Errorf("PATCH %s: %d %s", path, code, data)
	}
	return nil
}

// runJob runs a Job's pod template once, as the job controller and kubelet would, and reports it.
func (k *Kubelet) runJob(ctx context.Context, j *batchv1.Job) {
	select {
	case k.jobSlots <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() { <-k.jobSlots }()
	// OLM deletes a Job and makes another of the same name (its spec changed, a retry): each run has
	// folders of its own, and a Job deleted while it waited for a slot is not run.
	var cur batchv1.Job
	found, err := k.c.GetJSON(ctx, fmt.Sprintf("/apis/batch/v1/namespaces/%s/jobs/%s", j.Namespace, j.Name), &cur)
	if err == nil && (!found || cur.UID != j.UID || cur.DeletionTimestamp != nil) {
		k.logf("job %s/%s (uid %s): deleted before it ran", j.Namespace, j.Name, j.UID)
		return
	}
	run := j.Name + "-" + string(j.UID)[:8]
	defer k.removeContainers(j.Namespace, run)
	start := metav1.Now()
	k.logf("job %s/%s: starting", j.Namespace, j.Name)
	files, err := k.serviceAccountFiles(ctx, j.Namespace, j.Spec.Template.Spec.ServiceAccountName)
	if err != nil {
		k.logf("job %s/%s: %v", j.Namespace, j.Name, err)
		return
	}
	procs, _, err := k.runContainers(ctx, j.Namespace, run, &j.Spec.Template.Spec, nil, files)
	failed := err != nil
	if err != nil {
		k.logf("job %s/%s: %v", j.Namespace, j.Name, err)
	}
	for _, p := range procs {
		<-p.done
		if code := p.cmd.ProcessState.ExitCode(); code != 0 {
			failed = true
			k.logf("job %s/%s: container %s exited %d: %s", j.Namespace, j.Name, p.Name, code, p.Tail(2048))
		}
	}
	now := metav1.Now()
	st := batchv1.JobStatus{StartTime: &start}
	if failed {
		st.Failed = 1
		st.Conditions = []batchv1.JobCondition{
			{Type: batchv1.JobFailureTarget, Status: corev1.ConditionTrue, LastProbeTime: now, LastTransitionTime: now, Reason: "BackoffLimitExceeded"},
			{Type: batchv1.JobFailed, Status: corev1.ConditionTrue, LastProbeTime: now, LastTransitionTime: now, Reason: "BackoffLimitExceeded"}}
	} else {
		st.Succeeded, st.CompletionTime = 1, &now
		st.Conditions = []batchv1.JobCondition{
			{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, LastProbeTime: now, LastTransitionTime: now, Reason: "CompletionsReached"},
			{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastProbeTime: now, LastTransitionTime: now, Reason: "CompletionsReached"}}
	}
	k.logf("job %s/%s: done, failed=%v", j.Namespace, j.Name, failed)
	k.patchStatus(ctx, fmt.Sprintf("/apis/batch/v1/namespaces/%s/jobs/%s/status", j.Namespace, j.Name), st)
}

// removeContainers removes the root filesystems and volumes of a finished Job run's containers (their
// logs stay in the cluster's folder).
func (k *Kubelet) removeContainers(namespace, name string) {
	k.mu.Lock()
	roots := k.roots[namespace+"/"+name]
	delete(k.roots, namespace+"/"+name)
	k.mu.Unlock()
	for _, dir := range append(roots, filepath.Join(k.c.Dir, "pods", namespace, name)) {
		if err := os.RemoveAll(dir); err != nil {
			k.logf("job %s/%s: removing %s: %v", namespace, name, dir, err)
		}
	}
}

// serviceAccountFiles returns what kubelet mounts at /var/run/secrets/kubernetes.io/serviceaccount: a
// token of the service account from the TokenRequest API, the cluster's CA and the namespace.
func (k *Kubelet) serviceAccountFiles(ctx context.Context, namespace, sa string) (map[string][]byte, error) {
	if sa == "" {
		sa = "default"
	}
	path := fmt.Sprintf("/api/v1/namespaces/%s/serviceaccounts/%s/token", namespace, sa)
	var (
		code int
		body []byte
		err  error
	)
	for range 20 { // OLM may create the service account just after the Job
		code, body, err = k.c.Do(ctx, http.MethodPost, path, []byte(`{"apiVersion":"authentication.k8s.io/v1","kind":"TokenRequest","spec":{"audiences":["https://kubernetes.default.svc"]}}`))
		if err == nil && code == http.StatusCreated {
			break
		}
		time.Sleep(250 * time.Millisecond)
	}
	if err != nil || code != http.StatusCreated {
		return nil, fmt.Errorf("requesting a token for %s/%s: %v %d %s", namespace, sa, err, code, body)
	}
	var tr struct {
		Status struct{ Token string } `json:"status"`
	}
	if err := json.Unmarshal(body, &tr); err != nil {
		return nil, fmt.Errorf("decoding the token of %s/%s: %w", namespace, sa, err)
	}
	ca, err := os.ReadFile(filepath.Join(k.c.Dir, "ca.crt"))
	if err != nil {
		return nil, fmt.Errorf("reading the cluster CA: %w", err)
	}
	dir := "var/run/secrets/kubernetes.io/serviceaccount/"
	return map[string][]byte{dir + "token": []byte(tr.Status.Token), dir + "ca.crt": ca, dir + "namespace": []byte(namespace)}, nil
}

// syncDeployment reports a Deployment available with all its replicas, once per generation.
func (k *Kubelet) syncDeployment(ctx context.Context, d *appsv1.Deployment) {
	if k.deps[string(d.UID)] == d.Generation && d.Status.ObservedGeneration == d.Generation {
		return
	}
	k.deps[string(d.UID)] = d.Generation
	replicas := int32(1)
	if d.Spec.Replicas != nil {
		replicas = *d.Spec.Replicas
	}
	now := metav1.Now()
	st := appsv1.DeploymentStatus{ObservedGeneration: d.Generation, Replicas: replicas, UpdatedReplicas: replicas,
		ReadyReplicas: replicas, AvailableReplicas: replicas,
		Conditions: []appsv1.DeploymentCondition{
			{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable", LastUpdateTime: now, LastTransitionTime: now},
			{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "NewReplicaSetAvailable", LastUpdateTime: now, LastTransitionTime: now}}}
	k.logf("deployment %s/%s: generation %d available", d.Namespace, d.Name, d.Generation)
	k.patchStatus(ctx, fmt.Sprintf("/apis/apps/v1/namespaces/%s/deployments/%s/status", d.Namespace, d.Name), st)
}
