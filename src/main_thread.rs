//! The parameter that keeps the plugin's systems on the main thread.

use bevy::ecs::system::NonSendMarker;

/// A system parameter that makes the system holding it run on the main thread, as every
/// system of the plugin's sets does (why: [`TilepathSystems`](crate::plugin::TilepathSystems)).
/// Besides the hand-over of the system itself, the executor waits for each worker that ran
/// a system deferring commands before it applies them on the main thread.
pub(crate) type MainThread = NonSendMarker;
