//! The files of both crates import each other without cycles, read from their `use` lines.
//!
//! It lives in the workspace's unpublished tool crate because it reads the sources of
//! both published crates (`crates/tilepath/src` and the plugin's `src`).
//!
//! # The rule
//!
//! Every `.rs` file under `src/` is a node. Its module path follows the file layout
//! (`src/lib.rs` is `crate`, `src/a/mod.rs` and `src/a.rs` are `crate::a`,
//! `src/a/b.rs` is `crate::a::b`); inline `mod name { … }` blocks (test modules, the
//! prelude) are modules of their own that live in the same file.
//!
//! Every `use` statement anywhere in a file (top level, inline modules, function
//! bodies) gives edges from that file, except re-exports:
//!
//! - paths starting with `crate`, `super`, `self` or the name of a child module are
//!   resolved to an absolute module path; other paths (std, dependencies) give no edge;
//! - an import of a module (`use crate::smoothing;`, `astar::{self, …}`) points at that
//!   module's file;
//! - an import of an item `M::X` points at the file that defines `X`: if module `M`
//!   re-exports `X` with a `pub use` (as `scenario/mod.rs` does with
//!   `pub use cached::Layer`), the re-exported path is followed, recursively; otherwise
//!   `X` is taken to be defined in `M`'s own file;
//! - a glob `M::*` points at `M`'s file and at everything `M` re-exports;
//! - `pub use` statements (any visibility) are the module's facade, not dependencies
//!   of the file holding them: they give no edge, they are only followed as above;
//! - `mod name;` declarations give no edge (a parent owns its children; a child's
//!   `tests.rs` may use its parent without that being a cycle);
//! - edges from a file to itself are dropped.
//!
//! The test fails, printing the files of a cycle, if this graph has one. It also pins
//! the search layering: no algorithm file imports `search/pathfinder/mod.rs`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One parsed `use` tree leaf: its segments and whether it ends in `*`.
#[derive(Clone, Debug)]
struct Leaf {
    segments: Vec<String>,
    glob: bool,
    alias: Option<String>,
}

/// A `use` statement and the module it appears in.
#[derive(Clone, Debug)]
struct UseStmt {
    module: Vec<String>,
    reexport: bool,
    leaves: Vec<Leaf>,
}

/// A module: the file it lives in and the child modules declared in it.
#[derive(Debug, Default)]
struct Module {
    file: PathBuf,
    children: BTreeSet<String>,
}

#[derive(Debug, Default)]
struct Crate {
    modules: BTreeMap<Vec<String>, Module>,
    uses: BTreeMap<PathBuf, Vec<UseStmt>>,
}

fn rs_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("src is readable")
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            rs_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a file relative to `src/`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut path = vec!["crate".to_string()];
    let parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    for (k, part) in parts.iter().enumerate() {
        let last = k + 1 == parts.len();
        let name = part.trim_end_matches(".rs");
        if last && (name == "mod" || name == "lib") {
            break;
        }
        path.push(name.to_string());
    }
    path
}

/// The line without `//` comments, string and char literals (so braces in them do not count).
fn code_of(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars().peekable();
    let mut in_str = false;
    while let Some(c) = chars.next() {
        if in_str {
            match c {
                '\\' => {
                    chars.next();
                }
                '"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => in_str = true,
            '/' if chars.peek() == Some(&'/') => break,
            '\'' => {
                // A char literal such as '{' or '\n'; lifetimes ('a) have no closing quote nearby.
                let rest: String = chars.clone().take(3).collect();
                if let Some(escaped) = rest.strip_prefix('\\') {
                    if let Some(end) = escaped.find('\'') {
                        for _ in 0..end + 2 {
                            chars.next();
                        }
                    }
                } else if rest.chars().nth(1) == Some('\'') {
                    chars.next();
                    chars.next();
                }
            }
            _ => out.push(c),
        }
    }
    out
}

fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        match c {
            ':' if chars.peek() == Some(&':') => {
                chars.next();
                out.push("::".into());
            }
            '{' | '}' | ',' | '*' => out.push(c.to_string()),
            _ => {}
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Expands a use tree (tokens after `use`) into leaves, with `prefix` before it.
fn expand(tokens: &[String], pos: &mut usize, prefix: &[String], out: &mut Vec<Leaf>) {
    let mut segments = prefix.to_vec();
    loop {
        match tokens.get(*pos).map(String::as_str) {
            Some("{") => {
                *pos += 1;
                loop {
                    match tokens.get(*pos).map(String::as_str) {
                        Some("}") => {
                            *pos += 1;
                            return;
                        }
                        Some(",") => *pos += 1,
                        None => return,
                        _ => expand(tokens, pos, &segments, out),
                    }
                }
            }
            Some("*") => {
                *pos += 1;
                out.push(Leaf {
                    segments,
                    glob: true,
                    alias: None,
                });
                return;
            }
            Some("::") => *pos += 1,
            Some(word) if word != "," && word != "}" => {
                *pos += 1;
                // `a::{self}` names `a` itself; a leading `self` stays for resolution.
                if word != "self" || segments.is_empty() {
                    segments.push(word.to_string());
                }
                if tokens.get(*pos).map(String::as_str) == Some("as") {
                    let alias = tokens.get(*pos + 1).cloned();
                    *pos += 2;
                    out.push(Leaf {
                        segments,
                        glob: false,
                        alias,
                    });
                    return;
                }
                if tokens.get(*pos).map(String::as_str) != Some("::") {
                    out.push(Leaf {
                        segments,
                        glob: false,
                        alias: None,
                    });
                    return;
                }
            }
            _ => {
                if segments.len() > prefix.len() {
                    out.push(Leaf {
                        segments,
                        glob: false,
                        alias: None,
                    });
                }
                return;
            }
        }
    }
}

fn parse_crate(src: &Path) -> Crate {
    let mut files = Vec::new();
    rs_files(src, &mut files);
    let mut krate = Crate::default();
    for file in &files {
        let rel = file.strip_prefix(src).expect("under src").to_path_buf();
        let base = module_of(&rel);
        krate.modules.entry(base.clone()).or_default().file = rel.clone();
        let text = std::fs::read_to_string(file).expect("readable source");
        let mut depth = 0i32;
        // Inline modules open in this file: (module path, depth at which it closes).
        let mut inline: Vec<(Vec<String>, i32)> = Vec::new();
        let mut pending: Option<(String, Vec<String>)> = None;
        let mut uses = Vec::new();
        for raw in text.lines() {
            let code = code_of(raw);
            let trimmed = code.trim();
            let current = inline.last().map_or(base.clone(), |(m, _)| m.clone());
            if let Some((mut stmt, module)) = pending.take() {
                stmt.push(' ');
                stmt.push_str(trimmed);
                if trimmed.contains(';') {
                    uses.push((stmt, module));
                } else {
                    pending = Some((stmt, module));
                }
            } else if trimmed.find("use ").is_some_and(|p| {
                let head = &trimmed[..p];
                head.is_empty() || head.starts_with("pub")
            }) {
                let stmt = trimmed.to_string();
                if trimmed.contains(';') {
                    uses.push((stmt, current.clone()));
                } else {
                    pending = Some((stmt, current.clone()));
                }
            }
            let words: Vec<&str> = trimmed.split_whitespace().collect();
            if let Some(k) = words.iter().position(|w| *w == "mod")
                && words[..k].iter().all(|w| w.starts_with("pub"))
                && let Some(name) = words.get(k + 1)
            {
                let name = name.trim_end_matches([';', '{']).to_string();
                krate
                    .modules
                    .entry(current.clone())
                    .or_default()
                    .children
                    .insert(name.clone());
                if trimmed.ends_with('{') {
                    let mut m = current.clone();
                    m.push(name);
                    krate.modules.entry(m.clone()).or_default().file = rel.clone();
                    inline.push((m, depth));
                }
            }
            depth += code.matches('{').count() as i32 - code.matches('}').count() as i32;
            while inline.last().is_some_and(|(_, d)| depth <= *d) {
                inline.pop();
            }
        }
        let stmts = uses
            .into_iter()
            .map(|(stmt, module)| {
                let reexport = stmt.starts_with("pub");
                let body = &stmt[stmt.find("use ").expect("a use statement") + 4..];
                let body = body.split(';').next().unwrap_or("");
                let toks = tokens(body);
                let mut leaves = Vec::new();
                let mut pos = 0;
                expand(&toks, &mut pos, &[], &mut leaves);
                UseStmt {
                    module,
                    reexport,
                    leaves,
                }
            })
            .collect();
        krate.uses.insert(rel, stmts);
    }
    krate
}

impl Crate {
    /// The absolute path of a leaf used in `module`, or `None` for std and dependencies.
    fn absolute(&self, module: &[String], segments: &[String]) -> Option<Vec<String>> {
        let first = segments.first()?;
        let mut base: Vec<String> = match first.as_str() {
            "crate" => vec!["crate".into()],
            "self" => module.to_vec(),
            "super" => module.to_vec(),
            name if self
                .modules
                .get(module)
                .is_some_and(|m| m.children.contains(name)) =>
            {
                module.to_vec()
            }
            _ => return None,
        };
        let mut rest = match first.as_str() {
            "crate" | "self" => &segments[1..],
            _ => segments,
        };
        while rest.first().is_some_and(|s| s == "super") {
            base.pop();
            rest = &rest[1..];
        }
        base.extend(rest.iter().cloned());
        Some(base)
    }

    /// Re-exports of `module`: exported name → absolute path (`None` for a name
    /// re-exported from another crate, as the plugin's `pub use tilepath::grid`).
    fn reexports(&self, module: &[String]) -> Vec<(String, Option<Vec<String>>)> {
        let Some(m) = self.modules.get(module) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for stmt in self.uses.get(&m.file).into_iter().flatten() {
            if !stmt.reexport || stmt.module != module {
                continue;
            }
            for leaf in &stmt.leaves {
                if leaf.glob {
                    continue;
                }
                if let Some(last) = leaf.alias.clone().or_else(|| leaf.segments.last().cloned()) {
                    out.push((last, self.absolute(module, &leaf.segments)));
                }
            }
        }
        out
    }

    /// Files an absolute path points at, following re-exports.
    fn resolve(&self, path: &[String], glob: bool, depth: u32, out: &mut BTreeSet<PathBuf>) {
        if depth > 16 {
            return;
        }
        let Some(k) = (1..=path.len())
            .rev()
            .find(|&k| self.modules.contains_key(&path[..k]))
        else {
            return;
        };
        let module = &path[..k];
        let file = self.modules[module].file.clone();
        let rest = &path[k..];
        if rest.is_empty() {
            out.insert(file);
            if glob {
                for (_, target) in self.reexports(module) {
                    if let Some(target) = target {
                        self.resolve(&target, false, depth + 1, out);
                    }
                }
            }
            return;
        }
        match self
            .reexports(module)
            .into_iter()
            .find(|(name, _)| *name == rest[0])
        {
            // Another crate's item: no edge.
            Some((_, None)) => {}
            Some((_, Some(target))) if target.as_slice() != path => {
                let mut full = target;
                full.extend(rest[1..].iter().cloned());
                self.resolve(&full, glob, depth + 1, out);
            }
            _ => {
                out.insert(file);
            }
        }
    }

    /// File → files it imports, by the rule in the module docs.
    fn graph(&self) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
        let mut graph = BTreeMap::new();
        for (file, stmts) in &self.uses {
            let edges: &mut BTreeSet<PathBuf> = graph.entry(file.clone()).or_default();
            for stmt in stmts.iter().filter(|s| !s.reexport) {
                for leaf in &stmt.leaves {
                    if let Some(abs) = self.absolute(&stmt.module, &leaf.segments) {
                        self.resolve(&abs, leaf.glob, 0, edges);
                    }
                }
            }
            edges.remove(file);
        }
        graph
    }
}

/// A cycle of the graph as a list of files (first repeated at the end), if any.
fn find_cycle(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) -> Option<Vec<PathBuf>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Active,
        Done,
    }
    fn visit(
        node: &PathBuf,
        graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>,
        marks: &mut BTreeMap<PathBuf, Mark>,
        stack: &mut Vec<PathBuf>,
    ) -> Option<Vec<PathBuf>> {
        marks.insert(node.clone(), Mark::Active);
        stack.push(node.clone());
        for next in graph.get(node).into_iter().flatten() {
            match marks.get(next).copied().unwrap_or(Mark::New) {
                Mark::Active => {
                    let from = stack.iter().position(|f| f == next).expect("on the stack");
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Mark::New => {
                    if let Some(c) = visit(next, graph, marks, stack) {
                        return Some(c);
                    }
                }
                Mark::Done => {}
            }
        }
        stack.pop();
        marks.insert(node.clone(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in graph.keys() {
        if marks.get(node).copied().unwrap_or(Mark::New) == Mark::New
            && let Some(c) = visit(node, graph, &mut marks, &mut Vec::new())
        {
            return Some(c);
        }
    }
    None
}

/// The import graph of the crate whose sources are in `dir` (relative to the workspace
/// root).
fn graph_of(dir: &str) -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(dir);
    parse_crate(&src).graph()
}

fn core_graph() -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    graph_of("crates/tilepath/src")
}

fn plugin_graph() -> BTreeMap<PathBuf, BTreeSet<PathBuf>> {
    graph_of("src")
}

/// Prints `graph` and panics with the files of a cycle, if it has one.
fn assert_acyclic(graph: &BTreeMap<PathBuf, BTreeSet<PathBuf>>) {
    for (file, edges) in graph {
        let shown: Vec<String> = edges.iter().map(|f| f.display().to_string()).collect();
        eprintln!("{} -> {}", file.display(), shown.join(", "));
    }
    if let Some(cycle) = find_cycle(graph) {
        let shown: Vec<String> = cycle.iter().map(|f| f.display().to_string()).collect();
        panic!("import cycle: {}", shown.join(" -> "));
    }
}

fn edges_of<'a>(
    graph: &'a BTreeMap<PathBuf, BTreeSet<PathBuf>>,
    file: &str,
) -> &'a BTreeSet<PathBuf> {
    graph
        .get(Path::new(file))
        .unwrap_or_else(|| panic!("{file} is not in the graph"))
}

#[test]
fn the_file_import_graph_of_the_core_has_no_cycle() {
    assert_acyclic(&core_graph());
}

#[test]
fn the_file_import_graph_of_the_plugin_has_no_cycle() {
    assert_acyclic(&plugin_graph());
}

/// The plugin's layers, from the bottom: a file may import only from its own layer or
/// one below it. `lib.rs`, `plugin.rs`, the prelude and the debug plugin assemble everything;
/// steering comes after the pipeline; the pipeline's stages work on the components,
/// settings, profiles and statistics (layer 0) and the tilemap sync (layer 1).
fn plugin_layer(file: &Path) -> u32 {
    let name = file.to_string_lossy();
    if ["lib.rs", "plugin.rs", "prelude.rs", "debug.rs"].contains(&name.as_ref()) {
        4
    } else if name.starts_with("steering/") {
        3
    } else if name.starts_with("pipeline/") {
        2
    } else if name.starts_with("tilemap/") {
        1
    } else {
        0
    }
}

#[test]
fn plugin_files_import_nothing_from_a_layer_above_them() {
    let graph = plugin_graph();
    for (file, edges) in &graph {
        for target in edges {
            assert!(
                plugin_layer(target) <= plugin_layer(file),
                "{} imports {} from a layer above it",
                file.display(),
                target.display()
            );
        }
    }
}

#[test]
fn the_parser_sees_the_known_imports() {
    let graph = core_graph();
    let has = |from: &str, to: &str| edges_of(&graph, from).contains(Path::new(to));
    // Direct imports, a re-export followed to its defining file, a child module path.
    assert!(has("search/pathfinder/mod.rs", "search/astar/mod.rs"));
    assert!(has("search/pathfinder/mod.rs", "smoothing/mod.rs"));
    assert!(has("search/astar/mod.rs", "search/state.rs"));
    assert!(has("search/astar/mod.rs", "scenario/layer.rs"));
    assert!(has("search/jps/mod.rs", "search/jps/scan.rs"));
    assert!(has("scenario/cached/mod.rs", "scenario/mod.rs"));
    // Re-exports and `mod` declarations are not edges.
    assert!(!has("search/mod.rs", "search/pathfinder/mod.rs"));
    assert!(!has("search/jps/mod.rs", "search/jps/tests.rs"));
}

#[test]
fn no_algorithm_imports_the_dispatching_pathfinder() {
    let graph = core_graph();
    for (file, edges) in &graph {
        let name = file.to_string_lossy();
        let is_test = file.file_name().is_some_and(|n| n == "tests.rs");
        // The pathfinder's own files (`search/pathfinder/`) are part of it.
        let own = name.starts_with("search/pathfinder/");
        if name.starts_with("search/") && !own && !is_test {
            assert!(
                !edges.contains(Path::new("search/pathfinder/mod.rs")),
                "{name} imports search/pathfinder/mod.rs"
            );
        }
    }
}

/// The algorithm family a file of `search/` belongs to, if any (test files excluded).
fn family(file: &Path) -> Option<&'static str> {
    let name = file.to_string_lossy();
    if file.file_name().is_some_and(|n| n == "tests.rs") {
        return None;
    }
    ["astar", "jps", "uninformed", "evasion"]
        .into_iter()
        .find(|f| name == format!("search/{f}.rs") || name.starts_with(&format!("search/{f}/")))
}

#[test]
fn the_shared_state_imports_no_algorithm_and_families_import_no_other_family() {
    let graph = core_graph();
    for target in edges_of(&graph, "search/state.rs") {
        assert!(
            family(target).is_none(),
            "search/state.rs imports {}",
            target.display()
        );
    }
    for (file, edges) in &graph {
        let Some(own) = family(file) else { continue };
        for target in edges {
            if let Some(other) = family(target) {
                assert_eq!(
                    own,
                    other,
                    "{} imports {}",
                    file.display(),
                    target.display()
                );
            }
        }
    }
}

#[test]
fn a_planted_cycle_is_found_and_printed() {
    let a = PathBuf::from("a.rs");
    let b = PathBuf::from("b.rs");
    let c = PathBuf::from("c.rs");
    let graph = BTreeMap::from([
        (a.clone(), BTreeSet::from([b.clone()])),
        (b.clone(), BTreeSet::from([c.clone()])),
        (c.clone(), BTreeSet::from([a.clone()])),
    ]);
    assert_eq!(find_cycle(&graph), Some(vec![a.clone(), b, c, a]));
}
