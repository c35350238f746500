import { sectionPermissions } from '../permissions';

/** Agents: every operator reads agents, their domains, stat and settlements; writes and settling are admins'. */
export const agentsPermissions = sectionPermissions('agents', ['read', 'edit'], ['read']);
