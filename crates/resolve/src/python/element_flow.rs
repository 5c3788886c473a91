//! Value flow through Python containers: what `handlers[key] = f`, `steps.append(f)` or
//! `table.update({"k": f})` put into a container (an [`ElementStore`], the value a project
//! function or a parameter holding one) flows into the container's `Slot::Element`, under
//! its literal key or none; a call of an element (`handlers["index"]()`, `handlers[k]()`,
//! `for step in steps: step()`) may call what was stored under that key, or under none, and
//! an element read by a computed key or by iterating may call any of them.
//!
//! A container is known by where its name is bound: the scope (module, function) whose
//! binding a plain name reaches, the module of `registry.HANDLERS`, or the class whose
//! instances have the attribute (`self.commands`, the first class in the MRO that sets it; an
//! attribute no project class sets, such as jinja's `env.filters`, is not followed).
//!
//! It deliberately does not follow a container passed to another function or returned,
//! elements stored into a container's elements (`d["a"].append(f)`), nor containers held in
//! names imported from another module (`from registry import HANDLERS`): those calls stay
//! unresolved and counted.

use tether_model::{BindingValue, CallSite, FileFacts, Receiver, SymbolId, SymbolKind};

use crate::denotation::Denotation;
use crate::language_rules::BindingUse;
use crate::project_index::Sym;
use crate::resolver::Resolver;
use crate::value_flow::{ArgumentFlow, ParameterCall, Slot};

/// Methods whose result iterates over a container's values (`for f in table.values()`).
const VALUE_VIEWS: [&str; 2] = ["values", "copy"];

impl Resolver<'_> {
    /// What a file's stores put into containers.
    pub(crate) fn element_store_flows(&self, file: &FileFacts) -> Vec<ArgumentFlow> {
        let mut flows = Vec::new();
        for store in &file.element_stores {
            let Some(scope) = self.index.sym_of(store.scope) else { continue };
            let Some((owner, name)) = self.container_owner(scope, &store.container, store.byte)
            else {
                continue;
            };
            let Some(value) = self.path_value(scope, &store.value, store.byte) else { continue };
            flows.push(ArgumentFlow {
                slot: Slot::Element { owner, name, key: store.key.clone() },
                value,
            });
        }
        flows
    }

    /// `handlers["index"]()`, `handlers[k]()`: an element of a container, by its one literal
    /// key or any.
    pub(crate) fn indexed_element_call(
        &self,
        caller: Sym,
        call: &CallSite,
        path: &[String],
    ) -> Option<ParameterCall> {
        let (container, keys) = crate::argument_slots::split_literal_keys(path);
        let key = match keys {
            [] => None,
            [key] => Some(key.clone()),
            _ => return None,
        };
        let (owner, name) = self.container_owner(caller, container, call.byte)?;
        Some(ParameterCall {
            caller: call.caller,
            slot: Slot::Element { owner, name, key },
            line: call.line,
            method: None,
        })
    }

    /// `for step in steps: step()`, `for f in table.values(): f()`: any element.
    pub(crate) fn iterated_element_call(
        &self,
        caller: Sym,
        call: &CallSite,
        name: &str,
    ) -> Option<ParameterCall> {
        let in_force =
            self.index.bindings_named(caller, name)?.iter().rev().find(|binding| {
                binding.visible_from <= call.byte && call.byte < binding.visible_to
            })?;
        let BindingValue::ElementOf(iterated) = &in_force.value else { return None };
        let container = match iterated {
            Receiver::Path(container) => container.clone(),
            Receiver::Slice { base, .. } => match &**base {
                Receiver::Path(container) => container.clone(),
                _ => return None,
            },
            Receiver::Call(callee) => match &**callee {
                tether_model::CalleeExpr::Path(path)
                    if path.len() > 1 && VALUE_VIEWS.contains(&path[path.len() - 1].as_str()) =>
                {
                    path[..path.len() - 1].to_vec()
                }
                _ => return None,
            },
            _ => return None,
        };
        let (owner, name) = self.container_owner(caller, &container, in_force.visible_from)?;
        Some(ParameterCall {
            caller: call.caller,
            slot: Slot::Element { owner, name, key: None },
            line: call.line,
            method: None,
        })
    }

    /// Where the container a path names at `byte` is bound, and its name there.
    fn container_owner(
        &self,
        scope: Sym,
        container: &[String],
        byte: u32,
    ) -> Option<(SymbolId, String)> {
        match container {
            [] => None,
            [name] => {
                let mut level = Some(scope);
                while let Some(current) = level {
                    if self.index.bindings_named(current, name).is_some() {
                        return Some((self.index.symbol(current).id, name.clone()));
                    }
                    level = self.index.parent(current);
                }
                None
            }
            [prefix @ .., attribute] => {
                let resolved = self
                    .context
                    .with_use_position(scope, byte, || {
                        self.python_path_in(scope, prefix, BindingUse::Allowed)
                    })
                    .ok()?;
                match resolved.denotation {
                    Denotation::Symbol(sym)
                        if matches!(
                            self.index.symbol(sym).kind,
                            SymbolKind::Module | SymbolKind::Class
                        ) =>
                    {
                        Some((self.index.symbol(sym).id, attribute.clone()))
                    }
                    // The first project class in the MRO that sets the attribute: a container an
                    // outside base creates (jinja's `env.filters`) holds what it puts there too.
                    Denotation::Instance { type_sym, .. } => {
                        let name = format!("self.{attribute}");
                        let class = self
                            .linearization(type_sym)
                            .into_iter()
                            .find(|class| self.index.bindings_named(*class, &name).is_some())?;
                        Some((self.index.symbol(class).id, name))
                    }
                    _ => None,
                }
            }
        }
    }
}
