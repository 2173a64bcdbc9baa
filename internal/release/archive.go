package release

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// archiveEntry is one file in a release archive, under the archive's top
// folder (its stem), so unpacking it never scatters files.
type archiveEntry struct {
	name string
	mode fs.FileMode
	data []byte
}

func archiveEntries(o Options, p Platform) ([]archiveEntry, error) {
	bin, err := os.ReadFile(filepath.Join(o.Dir, BinaryName(o.Version, p)))
	if err != nil {
		return nil, err
	}
	return []archiveEntry{
		{p.exe(), 0o755, bin},
		{"README.md", 0o644, o.README},
		{"LICENSE", 0o644, o.License},
	}, nil
}

// writeArchive writes p's archive: tar.gz, or zip for Windows.
func writeArchive(o Options, p Platform, path string) error {
	entries, err := archiveEntries(o, p)
	if err != nil {
		return err
	}
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if p.GOOS == "windows" {
		err = writeZip(f, Stem(o.Version, p), entries, o)
	} else {
		err = writeTarGz(f, Stem(o.Version, p), entries, o)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

func writeTarGz(f *os.File, top string, entries []archiveEntry, o Options) error {
	gz := gzip.NewWriter(f)
	tw := tar.NewWriter(gz)
	hdr := func(name string, typ byte, mode fs.FileMode, size int64) *tar.Header {
		return &tar.Header{Typeflag: typ, Name: name, Mode: int64(mode), Size: size,
			ModTime: o.ModTime, Format: tar.FormatUSTAR}
	}
	if err := tw.WriteHeader(hdr(top+"/", tar.TypeDir, 0o755, 0)); err != nil {
		return err
	}
	for _, e := range entries {
		if err := tw.WriteHeader(hdr(top+"/"+e.name, tar.TypeReg, e.mode, int64(len(e.data)))); err != nil {
			return err
		}
		if _, err := tw.Write(e.data); err != nil {
			return err
		}
	}
	if err := tw.Close(); err != nil {
		return err
	}
	return gz.Close()
}

func writeZip(f *os.File, top string, entries []archiveEntry, o Options) error {
	zw := zip.NewWriter(f)
	dir := &zip.FileHeader{Name: top + "/", Modified: o.ModTime}
	dir.SetMode(fs.ModeDir | 0o755)
	if _, err := zw.CreateHeader(dir); err != nil {
		return err
	}
	for _, e := range entries {
		h := &zip.FileHeader{Name: top + "/" + e.name, Method: zip.Deflate, Modified: o.ModTime}
		h.SetMode(e.mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return err
		}
		if _, err := w.Write(e.data); err != nil {
			return fmt.Errorf("%s: %w", e.name, err)
		}
	}
	return zw.Close()
}
