//! Registering a `qm_*` aggregate (and aggregate window function): every one through
//! [`define_aggregate`] or [`define_window`], which keep its state in [`Budgeted`] so the
//! state is charged to the query's memory budget on every growth (memory/held.rs) — an
//! aggregate cannot forget to count, and a query whose aggregate grows past its budget fails
//! at that row with Trino's EXCEEDED_LOCAL_MEMORY_LIMIT, not after it finished. Clippy refuses
//! registering an aggregate any other way (clippy.toml).

use std::panic::{RefUnwindSafe, UnwindSafe};

use querymesh_values::memory::{Exceeded, Held};
use rusqlite::functions::{Aggregate, Context, FunctionFlags, SqlFnOutput, WindowAggregate};
use rusqlite::{Connection, Result};

use super::fail;

/// An aggregate whose state is charged to the query as it grows.
struct Budgeted<F>(F);

/// An aggregate's own state and the memory it is charged for.
struct Charged<S> {
    state: S,
    held: Held,
}

fn refused(e: Exceeded) -> rusqlite::Error {
    let e = e.error();
    fail(e.name, e.text)
}

/// Runs one call of the aggregate, charging what it left allocated; past the budget the call
/// fails whatever it answered.
fn charged<R>(held: &mut Held, call: impl FnOnce() -> Result<R>) -> Result<R> {
    held.measure(call).map_err(refused)?
}

impl<F, S, T> Aggregate<Charged<S>, T> for Budgeted<F>
where
    F: Aggregate<S, T>,
    S: RefUnwindSafe + UnwindSafe,
    T: SqlFnOutput,
{
    fn init(&self, ctx: &mut Context<'_>) -> Result<Charged<S>> {
        let mut held = Held::new();
        let state = charged(&mut held, || self.0.init(ctx))?;
        Ok(Charged { state, held })
    }

    fn step(&self, ctx: &mut Context<'_>, acc: &mut Charged<S>) -> Result<()> {
        let Charged { state, held } = acc;
        charged(held, || self.0.step(ctx, state))
    }

    fn finalize(&self, ctx: &mut Context<'_>, acc: Option<Charged<S>>) -> Result<T> {
        // The charge is given back once the state is gone.
        let (state, _held) = match acc {
            Some(Charged { state, held }) => (Some(state), Some(held)),
            None => (None, None),
        };
        self.0.finalize(ctx, state)
    }
}

impl<F, S, T> WindowAggregate<Charged<S>, T> for Budgeted<F>
where
    F: WindowAggregate<S, T>,
    S: RefUnwindSafe + UnwindSafe,
    T: SqlFnOutput,
{
    fn value(&self, acc: Option<&mut Charged<S>>) -> Result<T> {
        self.0.value(acc.map(|c| &mut c.state))
    }

    fn inverse(&self, ctx: &mut Context<'_>, acc: &mut Charged<S>) -> Result<()> {
        let Charged { state, held } = acc;
        charged(held, || self.0.inverse(ctx, state))
    }
}

/// Registers the aggregate `name` on `conn`, its state charged to the query's budget.
#[allow(clippy::disallowed_methods)]
pub fn define_aggregate<F, S, T>(
    conn: &Connection,
    name: &str,
    n_arg: i32,
    flags: FunctionFlags,
    aggregate: F,
) -> Result<()>
where
    F: Aggregate<S, T> + Send + 'static,
    S: RefUnwindSafe + UnwindSafe + Send + 'static,
    T: SqlFnOutput + 'static,
{
    conn.create_aggregate_function(name, n_arg, flags, Budgeted(aggregate))
}

/// Registers the aggregate window function `name` on `conn`, its state charged to the query's
/// budget.
#[allow(clippy::disallowed_methods)]
pub fn define_window<F, S, T>(
    conn: &Connection,
    name: &str,
    n_arg: i32,
    flags: FunctionFlags,
    aggregate: F,
) -> Result<()>
where
    F: WindowAggregate<S, T> + Send + 'static,
    S: RefUnwindSafe + UnwindSafe + Send + 'static,
    T: SqlFnOutput + 'static,
{
    conn.create_window_function(name, n_arg, flags, Budgeted(aggregate))
}
