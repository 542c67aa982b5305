package makefile
import ("testing";"fmt")
func TestTry(t *testing.T){
 for _, p := range []string{"/tmp/mk/ls.mk","/tmp/mk/Kuadrant+authorino-operator/Makefile","/tmp/mk/nhc.mk","/tmp/mk/Kuadrant+limitador-operator/Makefile"} {
  f, err := Read(p, Override("VERSION","@@V@@"))
  if err != nil { t.Fatal(err) }
  f0,_ := Read(p)
  for _, n := range []string{"VERSION","CHANNELS","DEFAULT_CHANNEL","IMAGE_TAG_BASE","BUNDLE_IMG","CATALOG_IMG","IMG","BUNDLE_GEN_FLAGS"} {
    v := f0.Value(n); v2 := f.Value(n)
    fmt.Printf("%s %s=%q [%s] %q | %q\n", p, n, v.Text, v.At.Pos, v.Unresolved, v2.Text)
  }
  fmt.Printf("%+v\n", f0.ImageEdits("bundle"))
 }
}
