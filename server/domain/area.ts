// A domain area (server/domain/<area>/index.ts): the handlers of the operations declared with its name
// (schemas/operations/*.json, x-operation.area), and what it adds to the engine (entity hooks,
// transition side effects). The composition root gathers the areas and refuses to start when a
// declared operation has no handler, or a handler no declaration, or the two sit in different areas.
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { OperationCall, TransactionalCall } from "../../src/generated/operations.ts";
import type { EntityName, OperationAnswers, OperationInputs, TransitionKey } from "../../src/generated/types.ts";
import type { Db } from "../db/db.ts";
import type { Ctx, TxCtx } from "../entities/context.ts";
import type { EntityHooks, TransitionEffect } from "../entities/domain.ts";
import type { ListQuery } from "../entities/repository.ts";
import type { HttpError } from "../core/errors.ts";

export interface OperationRun<I, C extends Ctx = Ctx> {
  /** With the open transaction (ctx.tx, typed so: TxCtx) when the call runs in one (src/schema/transaction.ts). */
  ctx: C;
  /** The validated input: the body (POST) or the query coerced to the schema's types (GET, DELETE). */
  input: I;
  /** Operations answering a page of the entity's records: the list parameters (page, sort, filters). */
  list: ListQuery;
  request: FastifyRequest;
  /** Only operations answering a file write to it. */
  reply: FastifyReply;
  /** Operations that take a file (body: multipart): the file on disk, and what its intake's prepare made of it. */
  file?: ReceivedFile & { prepared?: unknown };
}

export type Handler<I, A = unknown, C extends Ctx = Ctx> = (run: OperationRun<I, C>) => Promise<A>;

/** What a call's handler answers: the type its schema declares (`<Call>Answer`), else anything. */
export type AnswerOf<K extends OperationCall> = K extends keyof OperationAnswers ? OperationAnswers[K] : unknown;

/** The context a call's handler gets: with its transaction when the call runs in one. */
export type CtxOf<K extends OperationCall> = K extends TransactionalCall ? TxCtx : Ctx;

export type Handlers = { [K in OperationCall]?: Handler<OperationInputs[K], AnswerOf<K>, CtxOf<K>> };

/** A file as it arrived, on disk; removed when its call is over (a handler that keeps it moves it). */
export interface ReceivedFile {
  path: string;
  size: number;
  /** What its intake set aside for it before it arrived (an upload's room in its quota). */
  reserved?: string;
}

/** What an intake allows a file before it is read (server/http/intake.ts streams it within that). */
export interface FileLimit {
  /** The most bytes the caller may send now. */
  bytes: number;
  /** The error past it: the field's size, or the quota's 429. */
  tooLarge: () => HttpError;
  /** The error when no file came, if the call says it its own way (which files it takes). */
  missing?: () => HttpError;
  /** What the intake set aside for this file (handed to the handler as the file's `reserved`). */
  reserved?: string;
  /** Gives back what was set aside, once the call is over (a handler that kept the file has taken it). */
  release?: () => Promise<void>;
}

/**
 * How an operation that takes a file (body: multipart) receives it, asked before its body is read: the
 * route loop streams the file to disk within the limit, runs `prepare` on it, and only then takes the
 * call's turn at the database and its transaction and runs the handler.
 */
export interface FileIntake<I> {
  /**
   * The most bytes this caller may send now; it may refuse at once (the permission, a full quota) and set
   * room aside (the body's announced length is the request's content-length header).
   */
  limit(ctx: Ctx, input: I, request: FastifyRequest): Promise<FileLimit>;
  /** Work on the arrived file that needs no database (reading a spreadsheet): the handler's `file.prepared`. */
  prepare?(ctx: Ctx, file: ReceivedFile, input: I): Promise<unknown>;
}

export type FileIntakes = { [K in OperationCall]?: FileIntake<OperationInputs[K]> };

export interface Area {
  name: string;
  handlers: Handlers;
  /** The intake of each of its operations that take a file. */
  files?: FileIntakes;
  /** Entity hooks, by entity name (a name no schema declares fails the typecheck). */
  hooks?: { [E in EntityName]?: EntityHooks };
  /** Transition side effects, by "<entity>.<action>" of a declared transition (a misspelt key fails the typecheck). */
  effects?: { [K in TransitionKey]?: TransitionEffect };
  /** What the area serves beside its calls (files) or runs beside them (sweeps), set up once on the app. */
  setup?: (app: FastifyInstance, db: Db) => void | Promise<void>;
}

export const defineArea = (area: Area): Area => area;
