//! A plan as Trino 476 prints it, for the plans whose every node the stand-in knows exactly
//! (shapes.rs builds them), and its three renderings: text (TextRenderer, with the fragments'
//! headers of PlanPrinter's distributed text), JSON (JsonRenderer through Jackson's pretty
//! printer) and Graphviz (GraphvizPrinter). All in core/trino-main/.../sql/planner/planprinter.

use querymesh_values::java_number::double_to_string;

/// Trino's version line, the first of every text plan.
const VERSION_LINE: &str = "Trino version: 476\n";

/// A plan symbol and its type, as a node outputs it.
#[derive(Clone, Debug)]
pub(super) struct Symbol {
    pub name: String,
    pub ty: String,
}

/// One of a node's estimates (PlanNodeStatsEstimate and PlanCostEstimate); NaN is unknown.
#[derive(Clone, Copy, Debug)]
pub(super) struct Estimate {
    pub rows: f64,
    pub size: f64,
    pub cpu: f64,
    pub memory: f64,
    pub network: f64,
}

impl Estimate {
    /// A node that costs nothing beyond passing `rows` of `size` bytes on.
    pub fn free(rows: f64, size: f64) -> Self {
        Self {
            rows,
            size,
            cpu: 0.0,
            memory: 0.0,
            network: 0.0,
        }
    }
}

/// How GraphvizPrinter draws a node: its label, details and fill colour.
#[derive(Clone, Debug)]
pub(super) struct Drawing {
    pub label: String,
    pub details: String,
    pub color: &'static str,
}

#[derive(Clone, Debug)]
pub(super) struct Node {
    /// Trino's plan node id, which only the JSON prints.
    pub id: u32,
    pub name: &'static str,
    /// In Trino's order; the text prints the entries with a value.
    pub descriptor: Vec<(&'static str, String)>,
    pub outputs: Vec<Symbol>,
    pub details: Vec<String>,
    pub estimates: Vec<Estimate>,
    pub children: Vec<Node>,
    pub drawing: Drawing,
    /// The fragments a remote source reads, which the Graphviz edges follow.
    pub remote_fragments: Vec<usize>,
    /// The table a scan reads, for EXPLAIN (TYPE IO).
    pub input: Option<TableInput>,
}

/// A table a plan reads and the values its connector says its columns hold (IoPlanPrinter's
/// inputTableColumnInfos).
#[derive(Clone, Debug)]
pub(super) struct TableInput {
    pub catalog: String,
    pub schema: String,
    pub table: String,
    pub constraints: Vec<ColumnConstraint>,
}

/// A column's domain: no nulls, ranges from low to high, both bounds included.
#[derive(Clone, Debug)]
pub(super) struct ColumnConstraint {
    pub column: String,
    pub ty: String,
    pub ranges: Vec<(String, String)>,
}

#[derive(Clone, Debug)]
pub(super) struct Fragment {
    pub id: usize,
    /// `SOURCE`, `SINGLE`, `ROUND_ROBIN`, or a connector's partitioning.
    pub partitioning: String,
    /// `SINGLE []`, `ROUND_ROBIN []`, `HASH [key]`.
    pub output_partitioning: String,
    pub root: Node,
}

/// The logical plan and the same plan cut into fragments.
#[derive(Clone, Debug)]
pub(super) struct TrinoPlan {
    pub logical: Node,
    pub fragments: Vec<Fragment>,
}

/// Which of the plans EXPLAIN prints (its TYPE).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum PlanType {
    Logical,
    Distributed,
    /// The tables read and the estimates (IoPlanPrinter), printed by [`TrinoPlan::io`].
    Io,
}

impl TrinoPlan {
    pub fn text(&self, plan_type: PlanType) -> String {
        let mut out = String::from(VERSION_LINE);
        match plan_type {
            PlanType::Logical | PlanType::Io => {
                write_text(&mut out, &self.logical, &Indent::root(0, &self.logical))
            }
            PlanType::Distributed => {
                for fragment in &self.fragments {
                    let layout: Vec<&str> = fragment
                        .root
                        .outputs
                        .iter()
                        .map(|s| s.name.as_str())
                        .collect();
                    out.push_str(&format!(
                        "Fragment {} [{}]\n    Output layout: [{}]\n    Output partitioning: {}\n",
                        fragment.id,
                        fragment.partitioning,
                        layout.join(", "),
                        fragment.output_partitioning
                    ));
                    write_text(&mut out, &fragment.root, &Indent::root(1, &fragment.root));
                    out.push('\n');
                }
            }
        }
        out
    }

    pub fn json(&self, plan_type: PlanType) -> String {
        let mut out = String::new();
        match plan_type {
            PlanType::Logical | PlanType::Io => write_json_node(&mut out, &self.logical, 0),
            PlanType::Distributed => {
                out.push_str("{\n");
                for (i, fragment) in self.fragments.iter().enumerate() {
                    if i > 0 {
                        out.push_str(",\n");
                    }
                    out.push_str(&format!("  \"{}\" : ", fragment.id));
                    write_json_node(&mut out, &fragment.root, 1);
                }
                out.push_str("\n}");
            }
        }
        out
    }

    /// EXPLAIN (TYPE IO): the tables read, each with its constraint and the scan's estimate,
    /// and the plan's estimate (the root's rows and size, the costs of all its nodes summed),
    /// as IoPlanPrinter's JSON.
    pub fn io(&self) -> String {
        let mut inputs = Vec::new();
        let mut total = Estimate::free(f64::NAN, f64::NAN);
        collect_io(&self.logical, &mut inputs, &mut total);
        if let Some(root) = self.logical.estimates.first() {
            (total.rows, total.size) = (root.rows, root.size);
        }

        let estimate = |e: &Estimate, depth: usize| json_estimate(e, "maxMemory", depth);
        let bound = |value: &str, depth: usize| {
            json_object(
                &[
                    ("value", json_string(value)),
                    ("bound", json_string("EXACTLY")),
                ],
                depth,
            )
        };
        let infos = inputs
            .iter()
            .map(|(input, scan)| {
                let constraints = input
                    .constraints
                    .iter()
                    .map(|c| {
                        let ranges = c
                            .ranges
                            .iter()
                            .map(|(low, high)| {
                                json_object(&[("low", bound(low, 6)), ("high", bound(high, 6))], 5)
                            })
                            .collect();
                        let domain = json_object(
                            &[
                                ("nullsAllowed", "false".into()),
                                ("ranges", json_array(ranges)),
                            ],
                            4,
                        );
                        json_object(
                            &[
                                ("columnName", json_string(&c.column)),
                                ("type", json_string(&c.ty)),
                                ("domain", domain),
                            ],
                            3,
                        )
                    })
                    .collect();
                let schema_table = json_object(
                    &[
                        ("schema", json_string(&input.schema)),
                        ("table", json_string(&input.table)),
                    ],
                    3,
                );
                let table = json_object(
                    &[
                        ("catalog", json_string(&input.catalog)),
                        ("schemaTable", schema_table),
                    ],
                    2,
                );
                let constraint = json_object(
                    &[
                        ("none", "false".into()),
                        ("columnConstraints", json_array(constraints)),
                    ],
                    2,
                );
                json_object(
                    &[
                        ("table", table),
                        ("constraint", constraint),
                        ("estimate", estimate(scan, 2)),
                    ],
                    1,
                )
            })
            .collect();
        json_object(
            &[
                ("inputTableColumnInfos", json_array(infos)),
                ("estimate", estimate(&total, 1)),
            ],
            0,
        )
    }

    pub fn graphviz(&self, plan_type: PlanType) -> String {
        let mut ids = NodeIds::default();
        let mut out = String::new();
        match plan_type {
            PlanType::Logical | PlanType::Io => {
                out.push_str("digraph logical_plan {\n");
                draw_cluster(&mut out, "graphviz_plan", "SINGLE", &self.logical, &mut ids);
                draw_edges(&mut out, &self.logical, &self.fragments, &mut ids);
            }
            PlanType::Distributed => {
                out.push_str("digraph distributed_plan {\n");
                for fragment in &self.fragments {
                    let cluster = fragment.id.to_string();
                    draw_cluster(
                        &mut out,
                        &cluster,
                        &fragment.partitioning,
                        &fragment.root,
                        &mut ids,
                    );
                    draw_edges(&mut out, &fragment.root, &self.fragments, &mut ids);
                }
            }
        }
        out.push_str("}\n");
        out
    }
}

/// The scans under `node` with their estimates, and the costs of every node summed into
/// `total` (an unknown cost makes the sum unknown).
fn collect_io<'p>(
    node: &'p Node,
    inputs: &mut Vec<(&'p TableInput, Estimate)>,
    total: &mut Estimate,
) {
    // A node without estimates (a remote source) is costed where its fragment is.
    if let Some(cost) = node.estimates.first() {
        total.cpu += cost.cpu;
        total.memory += cost.memory;
        total.network += cost.network;
    }
    if let (Some(input), Some(estimate)) = (&node.input, node.estimates.first()) {
        inputs.push((input, *estimate));
    }
    for child in &node.children {
        collect_io(child, inputs, total);
    }
}

/// TextRenderer's prefixes of a node's first line and of its other lines.
struct Indent {
    first: String,
    next: String,
    has_children: bool,
}

impl Indent {
    fn root(level: usize, node: &Node) -> Self {
        let indent = "    ".repeat(level);
        Self {
            first: indent.clone(),
            next: indent,
            has_children: !node.children.is_empty(),
        }
    }

    fn child(&self, last: bool, child: &Node) -> Self {
        let (first, next) = if last {
            ("└─ ", "   ")
        } else {
            ("├─ ", "│  ")
        };
        Self {
            first: format!("{}{first}", self.next),
            next: format!("{}{next}", self.next),
            has_children: !child.children.is_empty(),
        }
    }

    fn details(&self) -> String {
        format!(
            "{}{}",
            self.next,
            if self.has_children { "│   " } else { "    " }
        )
    }
}

/// The text identifier: the name, then the descriptor's entries that have a value.
fn identifier(node: &Node) -> String {
    let entries: Vec<String> = node
        .descriptor
        .iter()
        .filter(|(_, value)| !value.is_empty() && value != "[]")
        .map(|(key, value)| format!("{key} = {value}"))
        .collect();
    format!("{}[{}]", node.name, entries.join(", "))
}

/// Each line of `text` after `indent` (Java's `replaceAll("(?m)^", indent)`).
fn indent_lines(out: &mut String, text: &str, indent: &str) {
    for line in text.split_inclusive('\n') {
        out.push_str(indent);
        out.push_str(line);
    }
}

fn write_text(out: &mut String, node: &Node, indent: &Indent) {
    out.push_str(&indent.first);
    out.push_str(&identifier(node));
    out.push('\n');
    let details_indent = indent.details();
    let layout: Vec<String> = node
        .outputs
        .iter()
        .map(|s| format!("{}:{}", s.name, s.ty))
        .collect();
    indent_lines(
        out,
        &format!("Layout: [{}]\n", layout.join(", ")),
        &details_indent,
    );
    let known = node
        .estimates
        .iter()
        .any(|e| !(e.rows.is_nan() && e.cpu.is_nan() && e.memory.is_nan() && e.network.is_nan()));
    if known {
        let estimates: Vec<String> = node
            .estimates
            .iter()
            .map(|e| {
                format!(
                    "{{rows: {} ({}), cpu: {}, memory: {}, network: {}}}",
                    as_long(e.rows),
                    data_size(e.size),
                    data_size(e.cpu).trim_end_matches('B'),
                    data_size(e.memory),
                    data_size(e.network)
                )
            })
            .collect();
        indent_lines(
            out,
            &format!("Estimates: {}\n", estimates.join("/")),
            &details_indent,
        );
    }
    if !node.details.is_empty() {
        let details = node.details.join("\n");
        indent_lines(out, &details, &details_indent);
        if !details.ends_with('\n') {
            out.push('\n');
        }
    }
    for (i, child) in node.children.iter().enumerate() {
        let last = i + 1 == node.children.len();
        write_text(out, child, &indent.child(last, child));
    }
}

/// TextRenderer's row counts: rounded, `?` when unknown.
fn as_long(value: f64) -> String {
    if value.is_finite() {
        format!("{}", value.round() as i64)
    } else {
        "?".into()
    }
}

/// Airlift's `DataSize.succinctBytes(round(value))`: the largest unit the value reaches, with
/// two decimals past bytes (`527B`, `2.67kB`, `268.00kB`, `7.70MB`).
pub(super) fn data_size(value: f64) -> String {
    if value.is_nan() {
        return "?".into();
    }
    if value.is_infinite() {
        return if value > 0.0 { "+∞" } else { "-∞" }.into();
    }
    let bytes = value.round();
    let units = ["B", "kB", "MB", "GB", "TB", "PB"];
    let mut unit = 0;
    let mut scaled = bytes;
    while unit + 1 < units.len() && scaled.abs() >= 1024.0 {
        scaled /= 1024.0;
        unit += 1;
    }
    if unit == 0 {
        format!("{}B", bytes as i64)
    } else {
        format!("{scaled:.2}{}", units[unit])
    }
}

/// A JSON string as Jackson writes it.
fn json_string(text: &str) -> String {
    serde_json::Value::from(text).to_string()
}

/// A double as Jackson writes it: Java's Double.toString, `"NaN"` quoted.
fn json_number(value: f64) -> String {
    if value.is_nan() {
        "\"NaN\"".into()
    } else {
        double_to_string(value)
    }
}

/// An object's entries in Jackson's pretty layout at `depth` (two spaces per object level).
fn json_object(entries: &[(&str, String)], depth: usize) -> String {
    if entries.is_empty() {
        return "{ }".into();
    }
    let pad = "  ".repeat(depth + 1);
    let entries: Vec<String> = entries
        .iter()
        .map(|(key, value)| format!("{pad}{} : {value}", json_string(key)))
        .collect();
    format!("{{\n{}\n{}}}", entries.join(",\n"), "  ".repeat(depth))
}

/// An estimate as the JSON renderers print it; `memory` names the memory cost
/// (`memoryCost` in a plan, `maxMemory` in the IO plan).
fn json_estimate(e: &Estimate, memory: &str, depth: usize) -> String {
    json_object(
        &[
            ("outputRowCount", json_number(e.rows)),
            ("outputSizeInBytes", json_number(e.size)),
            ("cpuCost", json_number(e.cpu)),
            (memory, json_number(e.memory)),
            ("networkCost", json_number(e.network)),
        ],
        depth,
    )
}

/// An array in Jackson's layout: on one line, elements apart by `, `.
fn json_array(items: Vec<String>) -> String {
    if items.is_empty() {
        "[ ]".into()
    } else {
        format!("[ {} ]", items.join(", "))
    }
}

fn write_json_node(out: &mut String, node: &Node, depth: usize) {
    let descriptor: Vec<(&str, String)> = node
        .descriptor
        .iter()
        .map(|(k, v)| (*k, json_string(v)))
        .collect();
    let outputs = node
        .outputs
        .iter()
        .map(|s| {
            json_object(
                &[("type", json_string(&s.ty)), ("name", json_string(&s.name))],
                depth + 1,
            )
        })
        .collect();
    let estimates = node
        .estimates
        .iter()
        .map(|e| json_estimate(e, "memoryCost", depth + 1))
        .collect();
    let children = node
        .children
        .iter()
        .map(|child| {
            let mut s = String::new();
            write_json_node(&mut s, child, depth + 1);
            s
        })
        .collect();
    let entries = [
        ("id", json_string(&node.id.to_string())),
        ("name", json_string(node.name)),
        ("descriptor", json_object(&descriptor, depth + 1)),
        ("outputs", json_array(outputs)),
        (
            "details",
            json_array(node.details.iter().map(|d| json_string(d)).collect()),
        ),
        ("estimates", json_array(estimates)),
        ("children", json_array(children)),
    ];
    out.push_str(&json_object(&entries, depth));
}

/// GraphvizPrinter's node numbers: the next number at a node's first mention.
#[derive(Default)]
struct NodeIds(Vec<(*const Node, usize)>);

impl NodeIds {
    fn of(&mut self, node: &Node) -> String {
        let key = std::ptr::from_ref(node);
        let id = match self.0.iter().find(|(k, _)| *k == key) {
            Some(&(_, id)) => id,
            None => {
                let id = self.0.len() + 1;
                self.0.push((key, id));
                id
            }
        };
        format!("plannode_{id}")
    }
}

/// Graphviz's escapes of a label.
fn escape_label(text: &str) -> String {
    text.replace('<', "\\<")
        .replace('>', "\\>")
        .replace('"', "\\\"")
}

fn draw_cluster(out: &mut String, cluster: &str, label: &str, root: &Node, ids: &mut NodeIds) {
    out.push_str(&format!(
        "subgraph cluster_{cluster} {{\nlabel = \"{label}\"\n"
    ));
    draw_nodes(out, root, ids);
    out.push_str("}\n");
}

fn draw_nodes(out: &mut String, node: &Node, ids: &mut NodeIds) {
    let d = &node.drawing;
    let label = if d.details.is_empty() {
        escape_label(&d.label)
    } else {
        format!("{}|{}", escape_label(&d.label), escape_label(&d.details))
    };
    out.push_str(&format!(
        "{}[label=\"{{{label}}}\", style=\"rounded, filled\", shape=record, fillcolor={}];\n",
        ids.of(node),
        d.color
    ));
    for child in &node.children {
        draw_nodes(out, child, ids);
    }
}

fn draw_edges(out: &mut String, node: &Node, fragments: &[Fragment], ids: &mut NodeIds) {
    for target in &node.remote_fragments {
        if let Some(fragment) = fragments.iter().find(|f| f.id == *target) {
            let (from, to) = (ids.of(node), ids.of(&fragment.root));
            out.push_str(&format!("{from} -> {to};\n"));
        }
    }
    for child in &node.children {
        let (from, to) = (ids.of(node), ids.of(child));
        out.push_str(&format!("{from} -> {to};\n"));
        draw_edges(out, child, fragments, ids);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sizes as Trino 476 prints them in EXPLAIN's estimates.
    #[test]
    fn data_sizes_are_airlifts() {
        assert_eq!(data_size(527.0), "527B");
        assert_eq!(data_size(2734.0), "2.67kB");
        assert_eq!(data_size(8077041.0), "7.70MB");
        assert_eq!(data_size(274432.0), "268.00kB");
        assert_eq!(data_size(0.0), "0B");
        assert_eq!(data_size(f64::NAN), "?");
    }
}
