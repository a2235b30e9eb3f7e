// Command snapcompare reads pages the two ways our server reads a document
// for take_snapshot (Chromium's accessibility tree, and pagewalk.js, used
// for documents of 3,000 elements or more) and, with -ref, the reference
// server's take_snapshot (Chromium's tree as the reference prints it), all
// at the same viewport. It prints, per page, the element count, the share
// of lines each agrees on (uids stripped, compared in order) and the time
// each read took; -v also prints the lines that differ.
//
//	cd e2e && go run ./cmd/snapcompare [-ref ''] [-v] [-pages list.txt] [URL or file ...]
//
// Pages are URLs or local files (served on 127.0.0.1, with the rest of
// their Debian documentation package); without arguments, the corpus in
// cmd/snapcompare/testdata/corpus.txt. $CHROME_PATH picks our Chromium.
// The exit status is 1 when some page agrees on less than -min.
package main

import (
	"context"
	"flag"
	"log"
	"os"
)

func main() {
	var (
		list  = flag.String("pages", "cmd/snapcompare/testdata/corpus.txt", "file listing the pages, one URL or path a line, when none are given as arguments")
		ref   = flag.String("ref", "node /work/ref/node_modules/chrome-devtools-mcp/build/src/bin/chrome-devtools-mcp.js --no-usage-statistics --no-performance-crux --no-page-id-routing --executablePath /usr/bin/chromium --chromeArg=--no-sandbox", "the reference server's command; empty to compare our two ways only")
		min   = flag.Float64("min", 0.995, "the agreement under which a page fails")
		diffs = flag.Bool("v", false, "print the lines that differ")
		dump  = flag.String("dump", "", "directory to write each page's snapshots to (<page>.chromium, .pagewalk, .reference), for diff")
	)
	flag.Parse()
	log.SetFlags(0)
	pages := flag.Args()
	if len(pages) == 0 {
		var err error
		if pages, err = readList(*list); err != nil {
			log.Fatal(err)
		}
	}
	ctx := context.Background()
	r, err := newReader(ctx)
	if err != nil {
		log.Fatal(err)
	}
	defer r.Close(ctx)
	var rs *refServer
	if *ref != "" {
		if rs, err = startRef(ctx, *ref); err != nil {
			log.Fatal(err)
		}
		defer rs.Close()
	}
	s := newSite()
	defer s.Close()
	failed := false
	var t totals
	for _, page := range pages {
		url, err := s.url(page)
		if err != nil {
			log.Printf("%s: %v", page, err)
			failed = true
			continue
		}
		res, err := compare(ctx, r, rs, url)
		if err != nil {
			log.Printf("%s: %v", page, err)
			failed = true
			continue
		}
		res.print(os.Stdout, page, *diffs)
		if *dump != "" {
			if err := res.dump(*dump, page); err != nil {
				log.Fatal(err)
			}
		}
		t.add(res)
		if res.worst() < *min {
			failed = true
		}
	}
	t.print(os.Stdout)
	if failed {
		os.Exit(1)
	}
}
