import { sql, type Kysely } from "kysely";

/**
 * The whole schema of SPEC.md §3 / DESIGN.md §3.
 * Money is integer cents, lists are JSON text, timestamps are UTC ISO-8601 strings.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  const now = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

  await db.schema
    .createTable("users")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull().unique())
    .addColumn("full_name", "text")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .addCheckConstraint("users_email_lower", sql`email = lower(email)`)
    .execute();

  await db.schema
    .createTable("admin_users")
    .addColumn("id", "text", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("is_super_admin", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addCheckConstraint("admin_users_super_bool", sql`is_super_admin in (0, 1)`)
    .execute();

  await db.schema
    .createTable("sessions")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("data", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .execute();
  await db.schema.createIndex("sessions_user_id").on("sessions").column("user_id").execute();
  await db.schema.createIndex("sessions_expires_at").on("sessions").column("expires_at").execute();

  await db.schema
    .createTable("auth_tokens")
    .addColumn("token_hash", "text", (c) => c.primaryKey())
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("client_key", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("redirect_to", "text")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("expires_at", "text", (c) => c.notNull())
    .addColumn("used_at", "text")
    .execute();
  await db.schema.createIndex("auth_tokens_email_created").on("auth_tokens").columns(["email", "created_at"]).execute();
  await db.schema.createIndex("auth_tokens_client_created").on("auth_tokens").columns(["client_key", "created_at"]).execute();

  await db.schema
    .createTable("templates")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("slug", "text", (c) => c.notNull().unique())
    .addColumn("tagline", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull())
    .addColumn("category", "text", (c) => c.notNull())
    .addColumn("price", "integer", (c) => c.notNull())
    .addColumn("original_price", "integer")
    .addColumn("on_sale", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("featured", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("rating", "real", (c) => c.notNull().defaultTo(0))
    .addColumn("review_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("sales_count", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("features", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("included", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("tech_stack", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("tags", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("images", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("image_url", "text")
    .addColumn("file_url", "text")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .addCheckConstraint(
      "templates_category",
      sql`category in ('portfolio','saas','ecommerce','agency','blog','landing')`,
    )
    .addCheckConstraint("templates_price", sql`price >= 0 and (original_price is null or original_price > 0)`)
    .addCheckConstraint("templates_flags", sql`on_sale in (0,1) and featured in (0,1)`)
    .addCheckConstraint("templates_counts", sql`rating >= 0 and rating <= 5 and review_count >= 0 and sales_count >= 0`)
    .execute();
  await db.schema.createIndex("templates_created_at").on("templates").column("created_at").execute();
  await db.schema.createIndex("templates_featured_created").on("templates").columns(["featured", "created_at"]).execute();
  await db.schema.createIndex("templates_category_created").on("templates").columns(["category", "created_at"]).execute();

  await db.schema
    .createTable("purchases")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("template_id", "text", (c) => c.notNull().references("templates.id").onDelete("cascade"))
    .addColumn("amount_paid", "integer", (c) => c.notNull())
    .addColumn("license_key", "text", (c) => c.notNull().unique())
    .addColumn("stripe_session_id", "text", (c) => c.unique())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("active"))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addUniqueConstraint("purchases_user_template", ["user_id", "template_id"])
    .addCheckConstraint("purchases_status", sql`status in ('active','refunded')`)
    .addCheckConstraint("purchases_amount", sql`amount_paid >= 0`)
    .execute();
  await db.schema.createIndex("purchases_created_at").on("purchases").column("created_at").execute();
  await db.schema.createIndex("purchases_template_id").on("purchases").column("template_id").execute();

  await db.schema
    .createTable("stripe_events")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("processed_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();

  await db.schema
    .createTable("download_logs")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("purchase_id", "text", (c) => c.notNull().references("purchases.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("template_id", "text", (c) => c.notNull().references("templates.id").onDelete("cascade"))
    .addColumn("ip_address", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("download_logs_purchase_id").on("download_logs").column("purchase_id").execute();

  await db.schema
    .createTable("bookings")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("full_name", "text", (c) => c.notNull())
    .addColumn("company_name", "text", (c) => c.notNull())
    .addColumn("phone", "text")
    .addColumn("package_type", "text", (c) => c.notNull())
    .addColumn("package_price", "integer", (c) => c.notNull())
    .addColumn("total_amount", "integer", (c) => c.notNull())
    .addColumn("discount_percent", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("campaign_accepted", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("amount_paid", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("payment_status", "text", (c) => c.notNull().defaultTo("unpaid"))
    .addColumn("payment_history", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("website_url", "text")
    .addColumn("is_new_site", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("project_description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("project_goals", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("target_audience", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("inspiration_urls", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("design_preferences", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("desired_start_date", "text")
    .addColumn("timeline_urgency", "text", (c) => c.notNull().defaultTo("flexible"))
    .addColumn("addons", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("uploaded_files", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("uploaded_file_urls", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("source", "text")
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .addCheckConstraint("bookings_package", sql`package_type in ('essentials','growth','custom')`)
    .addCheckConstraint(
      "bookings_status",
      sql`status in ('pending','contacted','in_progress','completed','cancelled')`,
    )
    .addCheckConstraint("bookings_payment_status", sql`payment_status in ('unpaid','partial','paid')`)
    .addCheckConstraint("bookings_urgency", sql`timeline_urgency in ('flexible','rush')`)
    .addCheckConstraint(
      "bookings_amounts",
      sql`package_price >= 0 and total_amount >= 0 and amount_paid >= 0 and discount_percent between 0 and 100`,
    )
    .execute();
  await db.schema.createIndex("bookings_created_at").on("bookings").column("created_at").execute();
  await db.schema.createIndex("bookings_status_created").on("bookings").columns(["status", "created_at"]).execute();

  await db.schema
    .createTable("booking_drafts")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("booking_id", "text", (c) => c.notNull().unique())
    .addColumn("data", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("uploaded_files", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("confirmed_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("updated_at", "text", (c) => c.notNull().defaultTo(now))
    .execute();
  await db.schema.createIndex("booking_drafts_updated_at").on("booking_drafts").column("updated_at").execute();

  await db.schema
    .createTable("email_outbox")
    .addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    .addColumn("to_email", "text", (c) => c.notNull())
    .addColumn("subject", "text", (c) => c.notNull())
    .addColumn("text_body", "text", (c) => c.notNull())
    .addColumn("html_body", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("error", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "text")
    .addColumn("created_at", "text", (c) => c.notNull().defaultTo(now))
    .addColumn("sent_at", "text")
    .addCheckConstraint("email_outbox_status", sql`status in ('pending','sent','logged','failed')`)
    .execute();
  await db.schema.createIndex("email_outbox_status_next").on("email_outbox").columns(["status", "next_attempt_at"]).execute();
  await db.schema.createIndex("email_outbox_to_email").on("email_outbox").columns(["to_email", "id"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    "email_outbox",
    "booking_drafts",
    "bookings",
    "download_logs",
    "stripe_events",
    "purchases",
    "templates",
    "auth_tokens",
    "sessions",
    "admin_users",
    "users",
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}
