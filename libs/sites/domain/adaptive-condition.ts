import jsep from 'jsep';
import { claimReference } from './adaptive-schema';

/**
 * The conditions of adaptive content: JavaScript expressions over a visitor's claims, deciding whether a
 * section or site space is shown to them (`visitor.claims.beta && !visitor.claims.unsigned.optOut`).
 * Parsed by jsep into a syntax tree, then held to GitBook's subset: claims of the site's adaptive schema
 * (`visitor.claims.<name>`, `visitor.claims.unsigned.<name>`, or by a quoted name in brackets), literals,
 * `!`, `&&`, `||`, `==`, `===`, `!=`, `!==` and parentheses. Nothing else runs: no call, no assignment.
 */

export const CONDITION_MAX = 1024;

/** The claims a condition may name: a schema's `properties`, with `unsigned` holding the unsigned ones. */
export interface ClaimsSchema {
  properties: Record<string, { type?: unknown; properties?: Record<string, { type?: unknown }> }>;
}

/** A visitor's claims, as their token holds them: the signed ones, and `unsigned`. */
export type VisitorClaims = Record<string, unknown> & { unsigned?: Record<string, unknown> };

const LOGICAL = new Set(['&&', '||']);
const EQUALITY = new Set(['==', '===', '!=', '!==']);

type Node = jsep.Expression;

/** A claim a condition names: signed or not, by its name. */
interface ClaimRef {
  name: string;
  unsigned: boolean;
}

/** A claim named by a condition, and the literal it is compared with, if it is. */
interface Named {
  ref: ClaimRef;
  compared?: true;
  comparedWith?: unknown;
}

const isReference = (node: Node) => node.type === 'Identifier' || node.type === 'MemberExpression';

class ConditionError extends Error {}

const refused = (message: string): never => {
  throw new ConditionError(message);
};

/** The name a member access reads: `.name`, or `["name"]`. */
function propertyName(node: Node): string | undefined {
  const property = node.property as Node;
  if (!node.computed && property.type === 'Identifier') return property.name as string;
  if (node.computed && property.type === 'Literal' && typeof property.value === 'string')
    return property.value;
  return undefined;
}

/** `visitor.claims.x` or `visitor.claims.unsigned.x` as the claim it names; anything else is refused. */
function claimOf(node: Node): ClaimRef {
  const path: string[] = [];
  let at: Node = node;
  while (at.type === 'MemberExpression') {
    const name = propertyName(at);
    if (name === undefined) refused('a member may only be named, or quoted in brackets');
    path.unshift(name as string);
    at = at.object as Node;
  }
  if (at.type !== 'Identifier') refused(`${at.type} is not allowed`);
  path.unshift(at.name as string);
  const [root, claims, ...rest] = path;
  const named = path.join('.');
  if (root !== 'visitor' || claims !== 'claims' || rest.length === 0)
    refused(`${named} is not a claim: name visitor.claims.<name> or visitor.claims.unsigned.<name>`);
  if (rest[0] === 'unsigned' && rest.length === 2) return { name: rest[1], unsigned: true };
  if (rest.length === 1) return { name: rest[0], unsigned: false };
  return refused(`${named} is not a claim: claims are booleans, with no members`);
}

/** A parsed condition of the subset: its tree, and the claims it names. */
function parse(condition: string): { tree: Node; claims: Named[] } {
  let tree: Node;
  try {
    tree = jsep(condition);
  } catch (error) {
    return refused(`it does not parse: ${(error as Error).message}`);
  }
  const claims: Named[] = [];
  /** The nodes a node holds, once it is one of the subset. */
  const within = (node: Node): Node[] => {
    switch (node.type) {
      case 'Literal':
        if (node.value instanceof RegExp) refused('a regular expression is not allowed');
        return [];
      case 'Identifier':
      case 'MemberExpression':
        claims.push({ ref: claimOf(node) });
        return [];
      case 'UnaryExpression':
        if (node.operator !== '!') refused(`the operator ${node.operator} is not allowed`);
        return [node.argument as Node];
      case 'BinaryExpression': {
        const operator = node.operator as string;
        if (!LOGICAL.has(operator) && !EQUALITY.has(operator))
          refused(`the operator ${operator} is not allowed`);
        const [left, right] = [node.left as Node, node.right as Node];
        // A claim against a literal: the literal is what the claim is compared with.
        if (EQUALITY.has(operator))
          for (const [claim, other] of [
            [left, right],
            [right, left],
          ])
            if (isReference(claim) && other.type === 'Literal')
              claims.push({ ref: claimOf(claim), compared: true, comparedWith: other.value });
        return [left, right];
      }
      case 'CallExpression':
        return refused('calling a function is not allowed');
      case 'Compound':
        return refused('only one expression is allowed');
      default:
        return refused(`${node.type} is not allowed`);
    }
  };
  const pending = [tree];
  while (pending.length > 0) pending.push(...within(pending.pop() as Node));
  return { tree, claims };
}

/** The problem of a condition on a site of this adaptive schema, null when it has none. */
export function conditionProblem(condition: string, schema: ClaimsSchema): string | null {
  if (condition.trim().length === 0 || condition.length > CONDITION_MAX)
    return `condition must be 1 to ${CONDITION_MAX} characters, not only spaces`;
  try {
    for (const { ref, compared, comparedWith } of parse(condition).claims) {
      const named = claimReference(ref.name, ref.unsigned);
      const claims = ref.unsigned ? (schema.properties.unsigned?.properties ?? {}) : schema.properties;
      const claim = Object.hasOwn(claims, ref.name) ? claims[ref.name] : undefined;
      if (!claim || (!ref.unsigned && ref.name === 'unsigned'))
        return `condition: ${named} is not a claim of the site's adaptive schema`;
      if (claim.type !== 'boolean') return `condition: ${named} is not a boolean claim`;
      // Compared with null, a claim is tested for absence.
      if (compared && comparedWith !== null && typeof comparedWith !== 'boolean')
        return `condition: ${named} is a boolean claim, compared with ${JSON.stringify(comparedWith)}`;
    }
  } catch (error) {
    if (error instanceof ConditionError) return `condition: ${error.message}`;
    throw error;
  }
  return null;
}

/** Two values equal as JavaScript's `==` has it, for the values a condition holds (no objects). */
function looselyEqual(a: unknown, b: unknown): boolean {
  if (a === null || a === undefined || b === null || b === undefined)
    return (a === null || a === undefined) && (b === null || b === undefined);
  if (typeof a === typeof b) return a === b;
  return Number(a) === Number(b);
}

/**
 * Whether a condition holds for a visitor with these claims, as GitBook evaluates it: a claim the token
 * lacks is undefined. A condition outside the subset throws (a stored one was checked when written).
 */
export function evaluate(condition: string, claims: VisitorClaims): boolean {
  const { tree } = parse(condition);
  const value = (node: Node): unknown => {
    switch (node.type) {
      case 'Literal':
        return node.value;
      case 'UnaryExpression':
        return !value(node.argument as Node);
      case 'BinaryExpression': {
        const [left, right] = [node.left as Node, node.right as Node];
        switch (node.operator) {
          case '&&':
            return value(left) && value(right);
          case '||':
            return value(left) || value(right);
          case '==':
            return looselyEqual(value(left), value(right));
          case '!=':
            return !looselyEqual(value(left), value(right));
          case '===':
            return value(left) === value(right);
          default:
            return value(left) !== value(right);
        }
      }
      default: {
        const ref = claimOf(node);
        const from = ref.unsigned ? claims.unsigned : claims;
        return from !== null && typeof from === 'object' && Object.hasOwn(from, ref.name)
          ? (from as Record<string, unknown>)[ref.name]
          : undefined;
      }
    }
  };
  return Boolean(value(tree));
}
