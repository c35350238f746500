/**
 * The channels of the sample agents that promote through a channel domain. The agents seed makes an agent of each and
 * the domains seed binds only these, so every seeded channel domain has its agent; kept here, below both modules, so
 * neither seed imports the other's module.
 */
export const SEED_DOMAIN_CHANNELS = Array.from({ length: 4 }, (_, i) => `ag${1000 + i}`);
