//! SHOW CATALOGS, which Trino rewrites into a sorted query of a Values of the catalogs.

use super::estimate::symbol_size;
use super::{drawing, output, remote_exchange_descriptor};
use crate::OutputColumn;
use crate::sql::statements::explain::trino_plan::{
    Drawing, Estimate, Fragment, Node, Symbol, TrinoPlan,
};
use crate::sql::{Body, Plan};

/// SHOW CATALOGS as Trino plans its rewrite: a Values of the catalogs, sorted, gathered.
pub(super) fn show_catalogs(inner: &Plan) -> Option<TrinoPlan> {
    let Body::Rows(rows) = &inner.body else {
        return None;
    };
    let [column] = inner.columns.as_slice() else {
        return None;
    };
    let ty = column.ty.display_name();
    let field = || {
        vec![Symbol {
            name: "field".into(),
            ty: ty.clone(),
        }]
    };
    let count = rows.len() as f64;
    let size = symbol_size(count, count, f64::NAN, &column.ty);
    let order = "[field ASC NULLS LAST]".to_string();
    let node = |id: u32,
                name: &'static str,
                descriptor: Vec<(&'static str, String)>,
                estimates: Vec<Estimate>,
                drawing: Drawing,
                children: Vec<Node>| Node {
        id,
        name,
        descriptor,
        outputs: field(),
        details: Vec::new(),
        estimates,
        children,
        drawing,
        remote_fragments: Vec::new(),
        input: None,
    };
    let gather = || drawing("ExchangeNode[GATHER]", format!("field::{ty}"), "gold");
    let unknown = Estimate {
        cpu: f64::NAN,
        memory: f64::NAN,
        network: f64::NAN,
        ..Estimate::free(count, size)
    };
    let values = {
        let mut v = node(
            0,
            "Values",
            Vec::new(),
            vec![Estimate::free(count, size)],
            drawing("Values", "", "deepskyblue"),
            Vec::new(),
        );
        v.details = rows
            .iter()
            .map(|r| Some(format!("({ty} '{}')", r.first()?.as_str()?)))
            .collect::<Option<_>>()?;
        v
    };
    let sort = |child: Node| {
        node(
            125,
            "PartialSort",
            vec![("orderBy", order.clone())],
            vec![unknown],
            drawing(format!("Sort[field::[{ty}]]"), "", "aliceblue"),
            vec![child],
        )
    };
    let local_merge = |child: Node| {
        node(
            158,
            "LocalMerge",
            vec![("orderBy", order.clone())],
            vec![Estimate::free(count, size)],
            gather(),
            vec![child],
        )
    };
    let outputs = [OutputColumn {
        name: column.name.clone(),
        ty: column.ty.clone(),
    }];
    let names = ["field".to_string()];

    let exchange = node(
        123,
        "RemoteExchange",
        remote_exchange_descriptor(),
        vec![Estimate {
            cpu: size,
            network: size,
            ..Estimate::free(count, size)
        }],
        drawing("ExchangeNode[REPARTITION]", "", "gold"),
        vec![values.clone()],
    );
    let remote_merge = node(
        124,
        "RemoteMerge",
        vec![("orderBy", order.clone())],
        vec![Estimate {
            network: size,
            ..Estimate::free(count, size)
        }],
        gather(),
        vec![local_merge(sort(exchange))],
    );
    let logical = output(7, &outputs, &names, remote_merge, count, &[size]);

    let remote = |id: u32, name: &'static str, fragment: usize, label: &str| {
        let mut n = node(
            id,
            name,
            vec![("sourceFragmentIds", format!("[{fragment}]"))],
            Vec::new(),
            drawing(label, "", "gold"),
            Vec::new(),
        );
        n.remote_fragments = vec![fragment];
        n
    };
    let fragment =
        |id: usize, partitioning: &str, output_partitioning: &'static str, root: Node| Fragment {
            id,
            partitioning: partitioning.into(),
            output_partitioning: output_partitioning.into(),
            root,
        };
    let top = output(
        7,
        &outputs,
        &names,
        remote(124, "RemoteMerge", 1, "Merge 1:N"),
        count,
        &[size],
    );
    Some(TrinoPlan {
        logical,
        fragments: vec![
            fragment(0, "SINGLE", "SINGLE []", top),
            fragment(
                1,
                "ROUND_ROBIN",
                "SINGLE []",
                local_merge(sort(remote(123, "RemoteSource", 2, "Exchange 1:N"))),
            ),
            fragment(2, "SINGLE", "ROUND_ROBIN []", values),
        ],
    })
}
