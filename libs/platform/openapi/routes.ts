import type { INestApplication, Type } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { Public } from '../auth/auth.guard';
import { IdPipe } from '../http/ids.pipe';
import { REST_OF_PATH, restOfPathName } from '../http/rest-of-path';
import { OWN_SHAPE } from './own-shape';

const PUBLIC_KEY = Public().KEY;

/** What the handler behind one operation declares, beyond what @nestjs/swagger reads without its plugin. */
export interface RouteFacts {
  controller: string;
  method: string;
  isPublic: boolean;
  /** The handler sends the reply itself (`@Res()`), so its status codes are not in the metadata. */
  sendsReply: boolean;
  body?: Type;
  query?: Type;
  /** Path parameters checked by the id pipe. */
  idParams: string[];
  /** The name of the rest of the URL after the route path's `*` (`pagePath`), if the handler reads it. */
  restOfPath?: string;
  /** What the answer is when it is not GitBook's response for the same route (`@OwnShape`). */
  ownShape?: string;
}

interface RouteArg {
  index: number;
  data?: unknown;
  pipes?: unknown[];
}

/** Joins the scanner's operations to the controller methods behind them, by a key its operationIdFactory sets. */
export class RouteCatalog {
  private readonly controllers = new Map<string, Type>();

  constructor(app: INestApplication) {
    for (const module of app.get(ModulesContainer).values()) {
      for (const wrapper of module.controllers.values()) {
        const type = wrapper.metatype as Type | null;
        if (!type) continue;
        const known = this.controllers.get(type.name);
        if (known && known !== type) throw new Error(`Two controllers are named ${type.name}`);
        this.controllers.set(type.name, type);
      }
    }
  }

  static key(controller: string, method: string): string {
    return `${controller}#${method}`;
  }

  facts(key: string): RouteFacts {
    const [controller, method] = key.split('#');
    const type = this.controllers.get(controller);
    if (!type) throw new Error(`No controller ${controller} for operation ${key}`);
    const handler = type.prototype[method] as object;
    const args: Record<string, RouteArg> = Reflect.getMetadata(ROUTE_ARGS_METADATA, type, method) ?? {};
    const paramTypes: unknown[] = Reflect.getMetadata('design:paramtypes', type.prototype, method) ?? [];
    const facts: RouteFacts = {
      controller,
      method,
      isPublic: Boolean(Reflect.getMetadata(PUBLIC_KEY, handler) ?? Reflect.getMetadata(PUBLIC_KEY, type)),
      sendsReply: false,
      idParams: [],
      ownShape: Reflect.getMetadata(OWN_SHAPE, handler) as string | undefined,
    };
    for (const [slot, arg] of Object.entries(args)) {
      // Built-in parameter decorators are keyed `<RouteParamtypes>:<index>`; custom ones carry a longer prefix.
      const kind = Number(slot.split(':')[0]);
      const declared = paramTypes[arg.index];
      if (kind === RouteParamtypes.RESPONSE) facts.sendsReply = true;
      if (kind === RouteParamtypes.BODY && arg.data === undefined && isClass(declared)) facts.body = declared;
      if (kind === RouteParamtypes.QUERY && arg.data === undefined && isClass(declared))
        facts.query = declared;
      if (kind === RouteParamtypes.PARAM && typeof arg.data === 'string' && arg.pipes?.some(isIdPipe)) {
        facts.idParams.push(arg.data);
      }
      if (kind === RouteParamtypes.PARAM && arg.data === REST_OF_PATH) {
        const name = restOfPathName(type, method);
        if (!name) throw new Error(`${key} reads the rest of the path without naming it (RestOfPath)`);
        facts.restOfPath = name;
      }
    }
    return facts;
  }
}

const PRIMITIVES: unknown[] = [Object, String, Number, Boolean, Array];

function isClass(value: unknown): value is Type {
  return typeof value === 'function' && !PRIMITIVES.includes(value);
}

function isIdPipe(pipe: unknown): boolean {
  return pipe instanceof IdPipe;
}
