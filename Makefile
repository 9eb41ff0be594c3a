# tipcat — build, test, demo, bench, install.
# The two commands a new machine needs: `make demo` and `make test`.

SWIFT      ?= swift
PREFIX     ?= /usr/local
DESTDIR    ?=
CATALOG    ?= Catalog
RELEASE    := .build/release
DEBUG      := .build/debug
BENCH_DIR  ?= .build/bench
BENCH_ONLY ?=
BENCH_TIPS ?= 5000
BENCH_LOCALES ?= 12
# Release builds link the Swift runtime and Foundation into the binary: a tipcat process starts in about half
# the time (no dynamic loading of the Swift libraries), and the binary runs without a Swift toolchain.
RELEASE_FLAGS ?= --static-swift-stdlib

.PHONY: all build-deps python-dep postgresql-dep build release test demo bench install uninstall clean deps plurals schemas templates widths docs help

all: build

help:
	@echo "make build     debug build"
	@echo "make test      build and run every test (what CI runs)"
	@echo "make demo      release build, then the whole flow on the sample catalog (plugins, generators, trail-app and state sync included)"
	@echo "make bench     benchmarks on a generated $(BENCH_TIPS) x $(BENCH_LOCALES) catalog (BENCH_ONLY=\"render engine\" runs just those parts)"
	@echo "make install   install tipcat, the tipcat-plugin-keys plugin and the shell completions under PREFIX ($(PREFIX))"
	@echo "make plurals   regenerate the CLDR plural table from Tests/Fixtures/cldr/plurals.json"
	@echo "make schemas   re-embed Catalog/schemas/*.schema.json into the binary (for tipcat init)"
	@echo "make templates re-embed the built-in styles of Templates/ into the binary"
	@echo "make widths    regenerate the display-width tables from Tests/Fixtures/unicode"
	@echo "make docs      regenerate README.md's table of diagnostics from the rule registry (DiagnosticRules.all)"
	@echo "make clean     remove build products and .tipcat/"

# System packages. Building needs the SQLite, libpq and libxml2 headers (the CSQLite, CPostgreSQL and CXMLEvents
# modules; libpq and libxml2 are loaded at run time by the commands that use them); the tests
# also use a throwaway PostgreSQL server (Debian's postgresql package), zsh and fish (to syntax-check completion
# scripts), Python's commonmark / markdown-it-py (to prove Markdown escaping) and Debian's chromium (to check the
# preview gallery in a headless browser).
# Installed only when missing and only where apt-get / pip can run (CI runs as root).
# $(call require-headers,TEST,PACKAGE,WHAT): when the shell test TEST fails, installs the Debian package PACKAGE
# (as root, with apt-get), else stops with "tipcat needs WHAT".
define require-headers
	@if ! { $(1); }; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "installing: $(2)"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) >/dev/null; \
	  else \
	    echo "error: tipcat needs $(3): sudo apt-get install $(2)" >&2; exit 1; \
	  fi; \
	fi
endef

build-deps:
	$(call require-headers,[ -f /usr/include/sqlite3.h ],libsqlite3-dev,the SQLite headers)
	$(call require-headers,[ -f /usr/include/postgresql/libpq-fe.h ] || [ -f /usr/include/libpq-fe.h ],libpq-dev,the PostgreSQL client headers)
	$(call require-headers,[ -f /usr/include/libxml2/libxml/parser.h ],libxml2-dev,the libxml2 headers)

# The PostgreSQL server binaries (initdb, pg_ctl, postgres) for the tests' throwaway server and `make bench`.
postgresql-dep:
	@if ! command -v initdb >/dev/null 2>&1 && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "installing: postgresql"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null) \
	      || echo "warning: could not install postgresql; the PostgreSQL tests will be skipped"; \
	  else \
	    echo "note: PostgreSQL server binaries not found (sudo apt-get install postgresql); the PostgreSQL tests will be skipped"; \
	  fi; \
	fi

# The sample catalog's brand-voice lint plugin is a Python script: validate, publish, the demo and the plugin
# tests run it.
python-dep:
	@if ! command -v python3 >/dev/null 2>&1; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "installing: python3"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 >/dev/null; \
	  else \
	    echo "error: the sample catalog's lint plugin needs python3: sudo apt-get install python3" >&2; exit 1; \
	  fi; \
	fi

deps: build-deps python-dep postgresql-dep
	@python3 -c "import commonmark, markdown_it" 2>/dev/null || pip install --quiet commonmark markdown-it-py >/dev/null 2>&1 \
	  || echo "note: commonmark/markdown-it-py not installed; the CommonMark rendering checks will be skipped"
	@missing=""; \
	for tool in zsh fish; do command -v $$tool >/dev/null 2>&1 || missing="$$missing $$tool"; done; \
	if [ -n "$$missing" ]; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null) \
	      || echo "warning: could not install$$missing; the completion-syntax tests for them will be skipped"; \
	  else \
	    echo "note:$$missing not installed; the completion-syntax tests for them will be skipped"; \
	  fi; \
	fi
	@if ! command -v chromium >/dev/null 2>&1; then \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    echo "installing: chromium"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	      || echo "warning: could not install chromium; the headless-browser checks of tipcat preview will be skipped"; \
	  else \
	    echo "note: chromium not installed; the headless-browser checks of tipcat preview will be skipped"; \
	  fi; \
	fi

build: build-deps
	$(SWIFT) build

release: build-deps
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product tipcat
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product tipcat-plugin-keys
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product trail-app

# Warnings are errors here, so a change that adds a build warning fails `make test` (and CI).
test: deps
	$(SWIFT) build --build-tests -Xswiftc -warnings-as-errors
	$(SWIFT) test --skip-build

demo: release python-dep
	@echo "== tipcat validate (sample catalog)"
	$(RELEASE)/tipcat validate --catalog $(CATALOG)
	@echo
	@echo "== tipcat plugins list: built-in, folder and external plugins (Catalog/plugins.json)"
	$(RELEASE)/tipcat plugins list --catalog $(CATALOG)
	@echo
	@echo "== tipcat generate keys: the Swift plugin tipcat-plugin-keys writes typed constants"
	@rm -rf .tipcat/demo-generated
	PATH="$(CURDIR)/$(RELEASE):$$PATH" $(RELEASE)/tipcat generate keys --catalog $(CATALOG) -o .tipcat/demo-generated
	head -n 12 .tipcat/demo-generated/TrailsKeys.swift
	@echo
	@echo "== tipcat generate docs: the built-in generator, then --check (up to date: exit 0)"
	@rm -rf .tipcat/demo-docs
	$(RELEASE)/tipcat generate docs --catalog $(CATALOG) -o .tipcat/demo-docs
	$(RELEASE)/tipcat generate docs --catalog $(CATALOG) -o .tipcat/demo-docs --check
	@echo
	@echo "== tipcat list"
	$(RELEASE)/tipcat list --catalog $(CATALOG)
	@echo
	@echo "== tipcat render: the compass tips in the ANSI style (English, then Japanese at 40 columns)"
	$(RELEASE)/tipcat render --group compass --style ansi --catalog $(CATALOG)
	$(RELEASE)/tipcat render --group compass --style ansi --locale ja --width 40 --catalog $(CATALOG)
	@echo
	@echo "== tipcat render: NewTrailTip as Markdown, in French, with parameters"
	$(RELEASE)/tipcat render NewTrailTip --style markdown --locale fr --param trail.id=silver-lake --param "trail.name=Silver Lake" --param trail.region=Wasatch --catalog $(CATALOG)
	@echo
	@echo "== tipcat render: inline Markdown in texts (bold, italic, a link), as plain text and as Markdown"
	$(RELEASE)/tipcat render OptionTip PasswordResetTip --catalog $(CATALOG)
	$(RELEASE)/tipcat render PasswordResetTip --style markdown --catalog $(CATALOG)
	@echo
	@echo "== tipcat preview: the HTML gallery of every tip in every locale (open .tipcat/demo-preview/index.html; --serve to serve it)"
	$(RELEASE)/tipcat preview --catalog $(CATALOG) -o .tipcat/demo-preview
	@echo
	@echo "== tipcat plural (a translator's aid)"
	$(RELEASE)/tipcat plural pl 1 2 5 22 1.5
	@echo
	@echo "== a broken copy: a rule names an undeclared event"
	@rm -rf .tipcat/demo-broken && mkdir -p .tipcat && cp -R $(CATALOG) .tipcat/demo-broken
	@sed -i 's/#visited-region/#visitedRegion/' .tipcat/demo-broken/tips/NewTrailTip.json
	@$(RELEASE)/tipcat validate --catalog .tipcat/demo-broken; \
	  status=$$?; echo "(exit status $$status: findings, as expected)"; [ $$status -eq 1 ]
	@echo
	@echo "== tipcat publish: the sample catalog into .tipcat/store.sqlite (again: nothing to publish)"
	$(RELEASE)/tipcat publish --catalog $(CATALOG)
	@echo
	@echo "== tipcat versions"
	$(RELEASE)/tipcat versions --catalog $(CATALOG)
	@echo
	@echo "== edit one message in a copy: publish, diff 1 2, rollback --to 1, versions, export (scratch store)"
	@rm -rf .tipcat/demo-edit .tipcat/demo-store.sqlite .tipcat/demo-store.sqlite-wal .tipcat/demo-store.sqlite-shm
	@cp -R $(CATALOG) .tipcat/demo-edit
	$(RELEASE)/tipcat publish --catalog .tipcat/demo-edit --store .tipcat/demo-store.sqlite -m "the sample catalog"
	@sed -i 's/To see key trail info/For key trail info/' .tipcat/demo-edit/tips/NewTrailTip.json
	$(RELEASE)/tipcat publish --catalog .tipcat/demo-edit --store .tipcat/demo-store.sqlite
	$(RELEASE)/tipcat diff 1 2 --store .tipcat/demo-store.sqlite
	$(RELEASE)/tipcat rollback --to 1 --store .tipcat/demo-store.sqlite
	$(RELEASE)/tipcat versions --store .tipcat/demo-store.sqlite
	$(RELEASE)/tipcat export --store .tipcat/demo-store.sqlite -o .tipcat/demo-bundle.json
	@echo
	@echo "== tipcat engine: why a tip waits on a fresh device, then a simulated week (which tip appears when)"
	@rm -rf .tipcat/demo-engine
	$(RELEASE)/tipcat publish --catalog $(CATALOG) --store .tipcat/demo-engine/store.sqlite --channel production --author demo -m "demo"
	$(RELEASE)/tipcat engine why FavoriteBackyardTip --store .tipcat/demo-engine/store.sqlite --channel production --now 2026-01-05T08:00:00Z
	$(RELEASE)/tipcat engine simulate Tests/TipcatEngineTests/Scenarios/demo-week.tipsim --store .tipcat/demo-engine/store.sqlite --channel production
	@echo
	@echo "== trail-app: an example app on the library products only, run twice on one state file (the second run sees the first's)"
	@rm -rf .tipcat/demo-trail && mkdir -p .tipcat/demo-trail
	$(RELEASE)/tipcat export --store .tipcat/demo-engine/store.sqlite -o .tipcat/demo-trail/tips.bundle.json
	$(RELEASE)/trail-app --bundle .tipcat/demo-trail/tips.bundle.json --state .tipcat/demo-trail/phone.sqlite --now 2026-01-05T08:00:00Z
	$(RELEASE)/trail-app --bundle .tipcat/demo-trail/tips.bundle.json --state .tipcat/demo-trail/phone.sqlite --now 2026-01-05T09:00:00Z
	@echo
	@echo "== state sync: the phone's state merged into a laptop's, which then picks the same tip"
	$(RELEASE)/tipcat engine export-state --bundle .tipcat/demo-trail/tips.bundle.json --state .tipcat/demo-trail/phone.sqlite -o .tipcat/demo-trail/phone.state.json
	$(RELEASE)/tipcat engine merge-state .tipcat/demo-trail/phone.state.json --bundle .tipcat/demo-trail/tips.bundle.json --state .tipcat/demo-trail/laptop.sqlite --now 2026-01-05T10:00:00Z
	$(RELEASE)/tipcat engine next --bundle .tipcat/demo-trail/tips.bundle.json --state .tipcat/demo-trail/laptop.sqlite --now 2026-01-05T10:00:00Z

bench: build-deps postgresql-dep
	@python3 -c "import jinja2" 2>/dev/null || pip install --quiet jinja2 || echo "warning: Jinja2 not installed; the render comparison is skipped"
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product tipcat
	$(SWIFT) build -c release $(RELEASE_FLAGS) --product tipcat-bench
	$(RELEASE)/tipcat-bench --tips $(BENCH_TIPS) --locales $(BENCH_LOCALES) --dir $(BENCH_DIR) $(foreach part,$(BENCH_ONLY),--only $(part))

install: release
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 $(RELEASE)/tipcat $(DESTDIR)$(PREFIX)/bin/tipcat
	install -m 755 $(RELEASE)/tipcat-plugin-keys $(DESTDIR)$(PREFIX)/bin/tipcat-plugin-keys
	install -d $(DESTDIR)$(PREFIX)/share/bash-completion/completions
	$(RELEASE)/tipcat completions bash > $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tipcat
	install -d $(DESTDIR)$(PREFIX)/share/zsh/site-functions
	$(RELEASE)/tipcat completions zsh > $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_tipcat
	install -d $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d
	$(RELEASE)/tipcat completions fish > $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/tipcat.fish

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/tipcat $(DESTDIR)$(PREFIX)/bin/tipcat-plugin-keys \
	  $(DESTDIR)$(PREFIX)/share/bash-completion/completions/tipcat \
	  $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_tipcat \
	  $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/tipcat.fish

plurals:
	$(SWIFT) run tipcat-gen-plurals Tests/Fixtures/cldr/plurals.json > Sources/TipcatLocalization/PluralRules+CLDR.swift.new
	mv Sources/TipcatLocalization/PluralRules+CLDR.swift.new Sources/TipcatLocalization/PluralRules+CLDR.swift

# README.md's "Diagnostics" table, between <!-- rules:begin --> and <!-- rules:end -->, from DiagnosticRules.all.
docs: build-deps
	$(SWIFT) build --build-tests
	TIPCAT_RECORD_README=1 $(SWIFT) test --skip-build --filter DiagnosticRulesTests/readmeTableIsGenerated

schemas:
	@{ echo '// Generated by `make schemas` from Catalog/schemas/*.schema.json — do not edit.'; \
	   echo '/// The JSON Schemas of the catalog files, embedded so `tipcat init` can write them.'; \
	   echo 'public enum CatalogSchemas {'; \
	   echo '    public static let files: [String: String] = ['; \
	   for f in Catalog/schemas/*.schema.json; do \
	     printf '        "%s": #"""\n' "$$(basename $$f)"; cat "$$f"; printf '"""#,\n'; \
	   done; \
	   echo '    ]'; echo '}'; } > Sources/TipcatCatalog/CatalogSchemas.swift
	@echo "wrote Sources/TipcatCatalog/CatalogSchemas.swift"

templates:
	@{ echo '// Generated by `make templates` from Templates/{plain,markdown,ansi,html} — do not edit.'; \
	   echo '/// The built-in styles, compiled in so an installed tipcat renders without a Templates folder.'; \
	   echo 'enum BuiltinStyles {'; \
	   echo '    static let files: [String: [String: String]] = ['; \
	   for style in plain markdown ansi html; do \
	     printf '        "%s": [\n' "$$style"; \
	     for f in Templates/$$style/*; do \
	       printf '            "%s": #"""\n' "$$(basename $$f)"; cat "$$f"; printf '\n"""#,\n'; \
	     done; \
	     printf '        ],\n'; \
	   done; \
	   echo '    ]'; echo '}'; } > Sources/TipcatRender/BuiltinStyles.swift
	@echo "wrote Sources/TipcatRender/BuiltinStyles.swift"

widths:
	$(SWIFT) run tipcat-gen-widths Tests/Fixtures/unicode > Sources/TipcatText/DisplayWidth+Tables.swift.new
	mv Sources/TipcatText/DisplayWidth+Tables.swift.new Sources/TipcatText/DisplayWidth+Tables.swift

clean:
	rm -rf .build .tipcat
