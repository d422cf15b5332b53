//! Named movement profiles: how each kind of unit reads the terrain of the [`NavGrid`](crate::components::NavGrid).
//!
//! [`NavGrid`](crate::components::NavGrid): crate::components::NavGrid

use std::borrow::Cow;

use bevy::prelude::*;

use crate::scenario::{MovementProfile, ProfileId};

/// The movement profiles of the game, by name: what each terrain costs, or forbids, for
/// a kind of unit (see [`MovementProfile`] for the exact cost model). A
/// [`PathRequest`](crate::components::PathRequest) names its profile with
/// [`PathRequest::profile`](crate::components::PathRequest::profile); requests that name
/// none use [`MovementProfiles::DEFAULT`].
///
/// The plugin adds this resource with one profile, [`MovementProfiles::DEFAULT`] (every
/// terrain weighs 1 and none is blocked: only obstacles matter, the behaviour of a map
/// without terrain). Add or replace profiles at any time; the resource hands out the
/// [`ProfileId`]s (the default is [`ProfileId::DEFAULT`]) and the plugin registers them
/// on the [`NavGrid`](crate::components::NavGrid)'s map in
/// [`TilepathSystems::SyncMap`](crate::plugin::TilepathSystems::SyncMap). A profile
/// that is added, changed or removed is announced in
/// [`NavGridChanged::profiles`](crate::components::NavGridChanged::profiles): every path
/// planned with it is planned again, and requests that failed with
/// [`PathFailure::UnknownProfile`](crate::components::PathFailure::UnknownProfile) are
/// retried.
///
/// Ids assigned by this resource overwrite profiles a hand-made map registered under the
/// same id; ids it does not use are left alone. At most 256 profiles exist at once.
///
/// ```
/// use bevy_tilepath::prelude::*;
/// use bevy_tilepath::scenario::MovementProfile;
///
/// const FOREST: u8 = 2;
/// const WATER: u8 = 3;
/// let mut profiles = MovementProfiles::default();
/// let infantry = profiles
///     .insert("infantry", MovementProfile::new().with_weight(FOREST, 3).with_blocked(WATER))
///     .unwrap();
/// assert_eq!(profiles.id("infantry"), Some(infantry));
/// assert_eq!(profiles.id(MovementProfiles::DEFAULT), Some(ProfileId::DEFAULT));
/// assert_eq!(profiles.get("infantry").unwrap().weight(FOREST), Some(3));
/// assert_eq!(profiles.name(infantry), Some("infantry"));
/// assert!(profiles.remove("infantry").is_some());
/// assert_eq!(profiles.id("infantry"), None);
/// // The default profile can be replaced but not removed.
/// assert!(profiles.remove(MovementProfiles::DEFAULT).is_none());
/// ```
#[derive(Resource, Clone, Debug, PartialEq, Reflect)]
#[reflect(Resource, Default, Debug, PartialEq)]
pub struct MovementProfiles {
    /// Profiles by id; `None` for ids that are free (removed profiles).
    entries: Vec<Option<NamedProfile>>,
}

/// One named profile of [`MovementProfiles`].
#[derive(Clone, Debug, PartialEq, Reflect)]
#[reflect(Debug, PartialEq)]
pub struct NamedProfile {
    /// The name requests use.
    pub name: Cow<'static, str>,
    /// Weights and blocked terrain (reflected as an opaque value: inspectors show and
    /// copy it whole, its 256 entries are not fields).
    pub profile: MovementProfile,
}

impl Default for MovementProfiles {
    fn default() -> Self {
        Self {
            entries: vec![Some(NamedProfile {
                name: Cow::Borrowed(Self::DEFAULT),
                profile: MovementProfile::new(),
            })],
        }
    }
}

impl MovementProfiles {
    /// Name of the profile of requests that name none; its id is [`ProfileId::DEFAULT`].
    pub const DEFAULT: &'static str = "default";

    /// Adds `profile` as `name`, or replaces the profile of that name (keeping its id).
    /// Returns the id, or `None` when the name is new and all 256 ids are taken. A new
    /// name takes the lowest free id.
    pub fn insert(
        &mut self,
        name: impl Into<Cow<'static, str>>,
        profile: MovementProfile,
    ) -> Option<ProfileId> {
        let name = name.into();
        if let Some(id) = self.id(&name) {
            if let Some(entry) = self.entries[usize::from(id.0)].as_mut() {
                entry.profile = profile;
            }
            return Some(id);
        }
        let index = match self.entries.iter().position(Option::is_none) {
            Some(free) => free,
            None if self.entries.len() < 256 => {
                self.entries.push(None);
                self.entries.len() - 1
            }
            None => return None,
        };
        self.entries[index] = Some(NamedProfile { name, profile });
        Some(ProfileId(index as u8))
    }

    /// [`MovementProfiles::insert`] as a builder; a profile that does not fit (all 256
    /// ids taken) is left out with a logged error.
    pub fn with(mut self, name: impl Into<Cow<'static, str>>, profile: MovementProfile) -> Self {
        let name = name.into();
        if self.insert(name.clone(), profile).is_none() {
            error!("movement profile `{name}` left out: all 256 profile ids are taken");
        }
        self
    }

    /// Removes the profile `name` and frees its id; the default profile cannot be
    /// removed (`None`). Requests naming it then fail with
    /// [`PathFailure::UnknownProfile`](crate::components::PathFailure::UnknownProfile).
    pub fn remove(&mut self, name: &str) -> Option<MovementProfile> {
        let id = self.id(name).filter(|&id| id != ProfileId::DEFAULT)?;
        let removed = self.entries[usize::from(id.0)].take().map(|p| p.profile);
        while self.entries.last().is_some_and(Option::is_none) {
            self.entries.pop();
        }
        removed
    }

    /// The id of the profile `name`.
    pub fn id(&self, name: &str) -> Option<ProfileId> {
        self.entries
            .iter()
            .position(|s| s.as_ref().is_some_and(|s| s.name == name))
            .map(|i| ProfileId(i as u8))
    }

    /// The profile `name`.
    pub fn get(&self, name: &str) -> Option<&MovementProfile> {
        self.id(name).and_then(|id| self.by_id(id))
    }

    /// The profile with id `id`.
    pub fn by_id(&self, id: ProfileId) -> Option<&MovementProfile> {
        self.entry(id).map(|s| &s.profile)
    }

    /// The name of the profile with id `id`.
    pub fn name(&self, id: ProfileId) -> Option<&str> {
        self.entry(id).map(|s| &*s.name)
    }

    /// Every profile with its id, in id order (the default first).
    pub fn iter(&self) -> impl Iterator<Item = (ProfileId, &NamedProfile)> {
        self.entries
            .iter()
            .enumerate()
            .filter_map(|(i, s)| Some((ProfileId(i as u8), s.as_ref()?)))
    }

    /// Number of profiles (at least 1: the default).
    pub fn len(&self) -> usize {
        self.entries.iter().flatten().count()
    }

    /// Always false: the default profile exists.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The id a request's profile name resolves to (`None`: the default).
    pub(crate) fn resolve(&self, name: Option<&str>) -> Option<ProfileId> {
        match name {
            None => Some(ProfileId::DEFAULT),
            Some(name) => self.id(name),
        }
    }

    fn entry(&self, id: ProfileId) -> Option<&NamedProfile> {
        self.entries.get(usize::from(id.0))?.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_reused_after_removal_and_kept_on_replace() {
        let mut p = MovementProfiles::default();
        let a = p.insert("a", MovementProfile::new()).unwrap();
        let b = p.insert("b", MovementProfile::new()).unwrap();
        assert_eq!((a, b), (ProfileId(1), ProfileId(2)));
        assert_eq!(
            p.insert("a", MovementProfile::new().with_weight(3, 4)),
            Some(a)
        );
        assert_eq!(p.get("a").unwrap().weight(3), Some(4));
        p.remove("a");
        assert_eq!(p.len(), 2);
        assert_eq!(p.insert("c", MovementProfile::new()), Some(ProfileId(1)));
        p.remove("b");
        p.remove("c");
        assert_eq!(p, MovementProfiles::default());
        for i in 1..256 {
            assert!(p.insert(format!("p{i}"), MovementProfile::new()).is_some());
        }
        assert_eq!(p.insert("one too many", MovementProfile::new()), None);
        assert_eq!(p.len(), 256);
    }
}
