//! Routers built from one table of endpoints — a path and a handler per method — so what a
//! router answers can also be listed: the OpenAPI document of the broker and the test-control
//! API is checked against these lists, and cannot drift from the routers.

use axum::Router;
use axum::handler::Handler;
use axum::routing::{self, MethodFilter, MethodRouter};

/// A method an endpoint answers, named once for the router and the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verb {
    Get,
    Post,
    Put,
    Patch,
    Delete,
}

impl Verb {
    /// The method's name, as HTTP (and OpenAPI, lowercased) spells it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Post => "POST",
            Self::Put => "PUT",
            Self::Patch => "PATCH",
            Self::Delete => "DELETE",
        }
    }

    fn filter(self) -> MethodFilter {
        match self {
            Self::Get => MethodFilter::GET,
            Self::Post => MethodFilter::POST,
            Self::Put => MethodFilter::PUT,
            Self::Patch => MethodFilter::PATCH,
            Self::Delete => MethodFilter::DELETE,
        }
    }
}

/// One endpoint: its path (axum's `{name}` form, which is OpenAPI's too) and its methods.
pub struct Endpoint<S> {
    pub path: String,
    pub methods: Vec<(Verb, MethodRouter<S>)>,
}

impl<S: Clone + Send + Sync + 'static> Endpoint<S> {
    pub fn new(path: impl Into<String>) -> Self {
        Self {
            path: path.into(),
            methods: Vec::new(),
        }
    }

    /// `handler` answers `verb` here.
    pub fn on<H, T>(self, verb: Verb, handler: H) -> Self
    where
        H: Handler<T, S>,
        T: 'static,
    {
        self.on_layered(verb, handler, |method| method)
    }

    /// Like [`Endpoint::on`], with `layer` applied to this method alone (a body limit).
    pub fn on_layered<H, T>(
        mut self,
        verb: Verb,
        handler: H,
        layer: impl FnOnce(MethodRouter<S>) -> MethodRouter<S>,
    ) -> Self
    where
        H: Handler<T, S>,
        T: 'static,
    {
        self.methods
            .push((verb, layer(routing::on(verb.filter(), handler))));
        self
    }
}

/// The router of `endpoints`; `finish` completes each path's method router (its fallback for
/// the methods it does not answer).
pub fn router<S: Clone + Send + Sync + 'static>(
    endpoints: Vec<Endpoint<S>>,
    finish: impl Fn(MethodRouter<S>) -> MethodRouter<S>,
) -> Router<S> {
    endpoints
        .into_iter()
        .fold(Router::new(), |router, endpoint| {
            let methods = endpoint
                .methods
                .into_iter()
                .fold(MethodRouter::new(), |all, (_, one)| all.merge(one));
            router.route(&endpoint.path, finish(methods))
        })
}

/// Every (method, path) of `endpoints`.
pub fn list<S>(endpoints: Vec<Endpoint<S>>) -> Vec<(Verb, String)> {
    endpoints
        .into_iter()
        .flat_map(|e| {
            let path = e.path;
            e.methods
                .into_iter()
                .map(move |(verb, _)| (verb, path.clone()))
        })
        .collect()
}
