//! Where units are: steering-plane positions from `Transform` and `ChildOf`, and moves written back.

use bevy::prelude::*;
use bevy::transform::helper::TransformHelper;

use crate::components::Placement;

/// Where a unit is this frame.
#[derive(Clone, Copy)]
pub(crate) struct Pose {
    pub(super) entity: Entity,
    /// Steering-plane position of the unit's centre (its world position on square maps).
    pub(super) at: Vec2,
    /// The parent's world transform, for writing moves back (`None` for root entities).
    pub(super) parent: Option<GlobalTransform>,
}

/// The poses of one system's units, in entity order; buffers reused every frame.
#[derive(Default)]
pub(crate) struct Poses {
    pub(super) poses: Vec<Pose>,
    children: Vec<(Entity, Entity)>,
}

impl Poses {
    /// Forgets last frame's units.
    pub(super) fn begin(&mut self) {
        self.poses.clear();
        self.children.clear();
    }

    /// Adds a unit: a root entity at `translation`, or a child of `parent` (resolved by
    /// [`Poses::finish`]).
    pub(super) fn add(&mut self, entity: Entity, translation: Vec3, parent: Option<&ChildOf>) {
        match parent {
            None => self.poses.push(Pose {
                entity,
                at: translation.truncate(),
                parent: None,
            }),
            Some(parent) => self.children.push((entity, parent.parent())),
        }
    }

    /// World positions of the children (from their `Transform` and those of their
    /// ancestors as of now), then every position in the steering plane of `placement`,
    /// and every pose sorted by entity.
    pub(super) fn finish(&mut self, helper: &TransformHelper, placement: &Placement) {
        self.finish_in_world(helper);
        for pose in &mut self.poses {
            pose.at = placement.plane_of(pose.at);
        }
    }

    /// World positions of the children, as [`Poses::finish`], every position left in
    /// the world (hexagonal maps steer there), and every pose sorted by entity.
    pub(super) fn finish_in_world(&mut self, helper: &TransformHelper) {
        for &(entity, parent) in &self.children {
            if let (Ok(global), Ok(parent)) = (
                helper.compute_global_transform(entity),
                helper.compute_global_transform(parent),
            ) {
                self.poses.push(Pose {
                    entity,
                    at: global.translation().truncate(),
                    parent: Some(parent),
                });
            }
        }
        self.poses.sort_unstable_by_key(|pose| pose.entity);
    }
}

impl Poses {
    /// The index of `entity` among the poses (in entity order), once finished.
    pub(super) fn index_of(&self, entity: Entity) -> Option<usize> {
        self.poses
            .binary_search_by_key(&entity, |pose| pose.entity)
            .ok()
    }
}

/// Moves `transform` so that its entity's steering-plane position is `plane` on x and y
/// (through `placement` to the world, then as [`write_world`]).
pub(super) fn write_position(
    transform: &mut Transform,
    parent: Option<&GlobalTransform>,
    placement: &Placement,
    plane: Vec2,
) {
    write_world(transform, parent, placement.world_of(plane));
}

/// Moves `transform` so that its entity's world position is `world` on x and y (through
/// the parent's world transform for child entities; z is kept).
pub(super) fn write_world(
    transform: &mut Transform,
    parent: Option<&GlobalTransform>,
    world: Vec2,
) {
    match parent {
        None => {
            transform.translation.x = world.x;
            transform.translation.y = world.y;
        }
        Some(parent) => {
            let affine = parent.affine();
            let current = affine.transform_point3(transform.translation);
            let local = affine.inverse().transform_point3(world.extend(current.z));
            if local.is_finite() {
                transform.translation = local;
            }
        }
    }
}
